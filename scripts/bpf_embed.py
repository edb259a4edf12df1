#!/usr/bin/env python3
"""Embed a compiled BPF object in the binary as a C array, so wirerate is one
file that needs nothing installed beside it: bpf_embed.py NAME IN.o OUT.c"""
import sys

name, src, dst = sys.argv[1:4]
data = open(src, 'rb').read()
with open(dst, 'w') as f:
    f.write('/* Generated from %s by scripts/bpf_embed.py: do not edit. */\n' % src.split('/')[-1])
    f.write('#include <stddef.h>\n')
    f.write('const unsigned char wr_bpf_%s[] __attribute__((aligned(8))) = {\n' % name)
    for i in range(0, len(data), 16):
        f.write('\t' + ', '.join('0x%02x' % b for b in data[i:i + 16]) + ',\n')
    f.write('};\n')
    f.write('const size_t wr_bpf_%s_len = %d;\n' % (name, len(data)))
