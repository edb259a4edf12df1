#!/usr/bin/env python3
"""Fail when the source tree breaks its structure: layers and names.

The layers, bottom to top, are the folders of src/ (docs/architecture.md
says what each holds). A file may include headers of its own layer and of
the layers below it; an include of a higher layer is printed as
FILE:LINE: LAYER may not include HIGHER/HEADER.

Names (docs/architecture.md, "File names"): a file is named
<concept>[_<role>].c/.h in lower case, and no two files in src/ share a
stem. A function that other files call (not static) and a static inline
function of a header is named after its file: the longest file stem that
its name starts with (the whole name, or the stem and "_") is the stem of
the file that defines it, so the file is found from the name alone. In
app/, names begin with "app_" before the stem; a private header X_impl.h
counts as the files of concept X; main() is exempt.

Every break is printed, and the exit status is 1. With an output path, a
stamp file is written when the check passes, so meson runs it as part of
every build.
"""
import os
import re
import sys

LAYERS = ['core', 'os', 'io', 'lab', 'dut', 'engine', 'store', 'app', 'render', 'cli']
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')
FILE_NAME = re.compile(r'^[a-z][a-z0-9]*(_[a-z0-9]+)*\.[ch]$')
# A function definition at the start of a line: a return type, the name,
# the parameters, and the body's brace on the same or the next line.
DEFINITION = re.compile(r'^(?!static\b)(?!typedef\b)(?:const\s+)?[A-Za-z_]\w*(?:\s+\w+)*[\s*]+'
                        r'([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{', re.M)
INLINE = re.compile(r'^static\s+inline\s+[^(;]*?\b([A-Za-z_]\w*)\s*\(', re.M)


def stem_of(name):
    """A file's concept: its name without the extension and without _impl."""
    stem = name[:-2]
    return stem[:-5] if stem.endswith('_impl') else stem


def home(func, stems):
    """The longest stem the function's name starts with, or None."""
    best = None
    for s in stems:
        if (func == s or func.startswith(s + '_')) and (best is None or len(s) > len(best)):
            best = s
    return best


def check_names(src, files):
    """Every break of the naming rules, as printable lines."""
    bad = []
    seen = {}
    for layer, path in files:
        name = os.path.basename(path)
        if not FILE_NAME.match(name):
            bad.append(f'{path}: a file name is lower case words joined by "_"')
        base = name[:-2]
        if base in seen and seen[base][0] != layer:
            bad.append(f'{path}: the name {base} is also {seen[base][1]} (one name, one file)')
        seen.setdefault(base, (layer, path))
    app = {stem_of(os.path.basename(p)) for l, p in files if l == 'app'}
    rest = {stem_of(os.path.basename(p)) for l, p in files if l != 'app'}
    for layer, path in files:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        found = INLINE.findall(text) if path.endswith('.h') else DEFINITION.findall(text)
        own = stem_of(os.path.basename(path))
        for func in found:
            if func == 'main' and path.endswith('cli/main.c'):
                continue
            if layer == 'app':
                got = home(func[4:], app) if func.startswith('app_') else None
                want = f'app_{own}'
            else:
                got = home(func, rest)
                want = own
            if got != own:
                where = f'the file of {got}' if got else 'no file'
                bad.append(f'{path}: {func}() reads as {where}: name it {want}_... or move it')
    return bad


def concept_of(stem):
    """The concept a file belongs to: its stem's first word (cmd_X: X)."""
    if stem.startswith('cmd_'):
        stem = stem[4:]
    return stem.split('_')[0]


def concepts(files):
    """docs/architecture.md's table: each concept of two files or more,
    its files by layer, bottom to top."""
    by = {}
    for layer, path in files:
        name = os.path.basename(path)
        stem = name[:-2]
        shown = stem if name.endswith('.c') or not os.path.exists(path[:-2] + '.c') else None
        if shown is None:
            continue
        if name.endswith('.h'):
            shown = name
        by.setdefault(concept_of(stem), {}).setdefault(layer, []).append(shown)
    rows = ['| concept | files (layer: stems, bottom to top) |', '|---|---|']
    for c in sorted(by):
        layers = by[c]
        if sum(len(v) for v in layers.values()) < 2:
            continue
        cell = '; '.join(f'{l}: ' + ', '.join(sorted(layers[l])) for l in LAYERS if l in layers)
        rows.append(f'| {c} | {cell} |')
    return '\n'.join(rows) + '\n'


def main():
    show = len(sys.argv) > 1 and sys.argv[1] == '--concepts'
    if show:
        del sys.argv[1]
    src = sys.argv[1]
    stamp = sys.argv[2] if len(sys.argv) > 2 else None
    rank = {name: i for i, name in enumerate(LAYERS)}
    bad = []
    files = []
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
                if os.path.basename(root) != 'bpf':
                    files.append((layer, path))
                with open(path, encoding='utf-8', errors='replace') as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m or m.group(1) not in rank:
                            continue
                        if rank[m.group(1)] > rank[layer]:
                            inc = line.split('"')[1]
                            bad.append(f'{path}:{n}: {layer} may not include {inc} (a higher layer)')
    if show:
        sys.stdout.write(concepts(files))
        return 0
    bad += check_names(src, files)
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
