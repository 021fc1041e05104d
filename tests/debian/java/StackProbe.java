// StackProbe: deep Java recursion in a 32-bit JVM, for the guests' /debian
// root (docs/debian-root.md; i386-guest/debian/mkroot.sh compiles it with
// javac --release 17 into /usr/local/share/stackprobe).
//
//   java -cp /usr/local/share/stackprobe StackProbe [DEPTH [THREAD_DEPTH]]
//
// recurses DEPTH calls deep (default 20000) on the thread main() runs on
// and prints depth=DEPTH, then THREAD_DEPTH calls deep (default 200000) on
// a second thread created with a 16 MiB stack and prints thread_depth=N,
// joins it and prints java=ok.  Every line is one key=value word.  A
// StackOverflowError prints overflow=main or overflow=thread and the depth
// reached (reached=N), and the exit status is 1; a usage error exits 2.
public class StackProbe {
    static final long THREAD_STACK = 16L << 20;

    // Depth reached by the deepest call so far on this thread; a plain
    // static would be shared, but the two recursions do not overlap.
    static int reached;

    // Not a tail call: each level's frame stays until the bottom returns.
    static int down(int n) {
        reached++;
        if (n == 0) {
            return 0;
        }
        return down(n - 1) + 1;
    }

    // Recurse n calls deep; the depth on success, else -1 after printing
    // overflow=WHERE and reached=N.
    static int probe(int n, String where) {
        reached = 0;
        try {
            return down(n - 1) + 1;
        } catch (StackOverflowError e) {
            System.out.println("overflow=" + where);
            System.out.println("reached=" + reached);
            return -1;
        }
    }

    static int parse(String[] args, int i, int fallback) {
        if (args.length <= i) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(args[i]);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println("StackProbe: '" + args[i] + "' is not a depth (a number from 1)");
        System.exit(2);
        return 0;
    }

    public static void main(String[] args) throws InterruptedException {
        int depth = parse(args, 0, 20000);
        int threadDepth = parse(args, 1, 200000);

        int got = probe(depth, "main");
        if (got < 0) {
            System.exit(1);
        }
        System.out.println("depth=" + got);

        int[] result = new int[1];
        Thread t = new Thread(null, () -> result[0] = probe(threadDepth, "thread"),
                "stackprobe-16m", THREAD_STACK);
        t.start();
        t.join();
        if (result[0] < 0) {
            System.exit(1);
        }
        System.out.println("thread_depth=" + result[0]);
        System.out.println("java=ok");
    }
}
