#!/usr/bin/python3
"""Check a KCIDB I/O v5.3 document (wirerate's KernelCI output).

usage: python3 tests/kcidb_check.py FILE.json

FILE holds one JSON document. It is checked against the KCIDB I/O v5.3
schema (tests/fixtures/kcidb-io-v5.3.schema.json, draft 2020-12) with
jsonschema's Draft202012Validator and a FormatChecker, and beside it:
every time (each "start_time", "_timestamp" and "*_finish_time") is
RFC 3339 by a strict check of its own (jsonschema checks "date-time" only
when the rfc3339-validator module is installed, and Debian's
python3-jsonschema does not bring it); no object repeats a key; no
NaN or Infinity (not JSON); the ids of each kind are unique.
Exit 0: valid; 1: not, each violation on stderr; 2: usage.
Debian's python3 and python3-jsonschema (scripts/deps.sh)."""
import datetime
import json
import os
import re
import sys

from jsonschema import Draft202012Validator, FormatChecker

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "kcidb-io-v5.3.schema.json")

RFC3339 = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$")


def rfc3339_valid(s):
    """s is an RFC 3339 date-time, each field in its range."""
    m = RFC3339.match(s) if isinstance(s, str) else None
    if not m:
        return False
    y, mo, d, h, mi, sec = (int(g) for g in m.groups()[:6])
    try:
        datetime.date(y, mo, d)
    except ValueError:
        return False
    if h > 23 or mi > 59 or sec > 60:
        return False
    if m.group(9) is not None and (int(m.group(9)) > 23 or int(m.group(10)) > 59):
        return False
    return True


def no_duplicates(pairs):
    seen = set()
    for k, _ in pairs:
        if k in seen:
            raise ValueError("the key %r appears twice in one object" % k)
        seen.add(k)
    return dict(pairs)


def no_constant(name):
    raise ValueError("%s is not JSON" % name)


def times(v, where):
    """(where, value) of every time in the document."""
    if isinstance(v, dict):
        for k, x in v.items():
            here = "%s/%s" % (where, k)
            if isinstance(x, str) and (k in ("start_time", "_timestamp") or k.endswith("_finish_time")):
                yield here, x
            else:
                yield from times(x, here)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from times(x, "%s/%d" % (where, i))


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    name = sys.argv[1]
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    try:
        with open(name, encoding="utf-8") as f:
            doc = json.load(f, object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except (OSError, ValueError) as e:
        print("%s: not a JSON document: %s" % (name, e), file=sys.stderr)
        return 1

    bad = []
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        where = "/" + "/".join(str(p) for p in e.absolute_path)
        bad.append("%s: %s" % (where, e.message))
    for where, t in times(doc, ""):
        if not rfc3339_valid(t):
            bad.append("%s: %r is not an RFC 3339 date-time" % (where, t))
    if isinstance(doc, dict):
        for kind in ("checkouts", "builds", "tests", "issues", "incidents"):
            ids = [o.get("id") for o in doc.get(kind, []) if isinstance(o, dict)]
            for i in sorted({i for i in ids if ids.count(i) > 1}, key=str):
                bad.append("/%s: the id %r appears %d times" % (kind, i, ids.count(i)))
    for b in bad:
        print("%s: %s" % (name, b), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
