#!/usr/bin/env python3
"""Fail when a source file includes a header of a layer above its own.

The layers, bottom to top, are the folders of src/ (docs/architecture.md
says what each holds). A file may include headers of its own layer and of
the layers below it; an include of a higher layer is printed as
FILE:LINE: LAYER may not include HIGHER/HEADER, and the exit status is 1.
With an output path, a stamp file is written when the check passes, so
meson runs it as part of every build.
"""
import os
import re
import sys

LAYERS = ['core', 'os', 'io', 'lab', 'dut', 'engine', 'store', 'app', 'render', 'cli']
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def main():
    src = sys.argv[1]
    stamp = sys.argv[2] if len(sys.argv) > 2 else None
    rank = {name: i for i, name in enumerate(LAYERS)}
    bad = []
    for layer in sorted(os.listdir(src)):
        top = os.path.join(src, layer)
        if not os.path.isdir(top):
            continue
        if layer not in rank:
            bad.append(f'{top}: a folder that is no layer (add it to scripts/layers.py)')
            continue
        for root, _, names in os.walk(top):
            for name in sorted(names):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in rank:
                            continue
                        if rank[m.group(1)] > rank[layer]:
                            inc = line.split('"')[1]
                            bad.append(f'{path}:{n}: {layer} may not include {inc} (a higher layer)')
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        return 1
    if stamp:
        with open(stamp, 'w') as f:
            f.write('layers ok\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
