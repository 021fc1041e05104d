#!/usr/bin/perl
# The elfnote sequence addon (Build-Depends: dh-sequence-elfnote): runs
# dh_elfnote right after dh_strip, so that the note elfnote adds after
# linking is not undone by strip or dwz, and before dh_makeshlibs,
# dh_shlibdeps and dh_md5sums see the files.
use strict;
use warnings;
use Debian::Debhelper::Dh_Lib;

insert_after('dh_strip', 'dh_elfnote');

1;
