#!/usr/bin/python3
"""Check wirerate JSON documents against their schema (docs/json/).

usage: jsoncheck.py SCHEMA FILE [LAST_SCHEMA]
Each line of FILE that is not empty is one document (a --json output is
one line; --json-stream gives several). With LAST_SCHEMA, the last line is
checked against it instead (the rfc2544 result after its trial lines).
A document also fails when an object repeats a key (JSON parsers keep one
of them silently). Exit 0: all valid; 1: the first invalid one, said why.
Debian's python3 and python3-jsonschema (scripts/deps.sh)."""
import json
import sys

from jsonschema import Draft202012Validator


def no_duplicates(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError("the key %r appears twice in one object" % k)
        seen.add(k)
    return dict(pairs)


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    schemas = [json.load(open(p)) for p in sys.argv[1:2] + sys.argv[3:4]]
    for s in schemas:
        Draft202012Validator.check_schema(s)
    lines = [l for l in open(sys.argv[2]).read().split("\n") if l.strip()]
    if not lines:
        print("%s: no document" % sys.argv[2])
        return 1
    for i, line in enumerate(lines):
        schema = schemas[-1] if i == len(lines) - 1 else schemas[0]
        try:
            doc = json.loads(line, object_pairs_hook=no_duplicates)
        except ValueError as e:
            print("%s line %d: %s" % (sys.argv[2], i + 1, e))
            return 1
        errors = sorted(Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            print("%s line %d: %s: %s" % (sys.argv[2], i + 1, "/".join(str(p) for p in e.path) or "(top)",
                                          e.message[:300]))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
