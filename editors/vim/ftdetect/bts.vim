" bts scripts: *.bts files, and files whose first line is a bts shebang (#!/usr/bin/env bts).
au BufRead,BufNewFile *.bts setfiletype bts
au BufRead,BufNewFile * if getline(1) =~# '^#!.*[/ ]bts\%(\s\|$\)' | setfiletype bts | endif
