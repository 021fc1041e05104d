// SPDX-License-Identifier: GPL-2.0
/* The smallest program: what execbench executes, to time exec itself. */
int main(void)
{
	return 0;
}
