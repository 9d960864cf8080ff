#!/usr/bin/env python3
"""The longest Rust functions under the given folders (default: src), by lines from `fn` to its
closing brace, test modules included. No function should pass 100 lines:
`scripts/checks/longest_fns.py src tests --top 15`."""
import argparse
import os
import re

FN = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)')


def strip(line):
    """The line without string, char literals and // comments (enough to count braces)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split('//', 1)[0]


def functions(path):
    with open(path, encoding='utf-8') as f:
        lines = f.readlines()
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            s = strip(lines[j])
            if not opened and s.rstrip().endswith(';') and '{' not in s:
                break  # a declaration without a body (trait method)
            for ch in s:
                if ch == '{':
                    depth += 1
                    opened = True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                yield (j - i + 1, path, i + 1, m.group(7))
                break
            j += 1
        i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('dirs', nargs='*', default=['src'])
    ap.add_argument('--top', type=int, default=15)
    args = ap.parse_args()
    found = []
    for d in args.dirs:
        for root, _, files in os.walk(d):
            for name in files:
                if name.endswith('.rs'):
                    found.extend(functions(os.path.join(root, name)))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    for n, path, line, name in found[:args.top]:
        print(f'{n:4d}  {path}:{line}  {name}')


if __name__ == '__main__':
    main()
