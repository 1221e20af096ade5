#!/usr/bin/env python3
"""Prints every CTC string of the given OPARI2 *.opari.inc files, one a line.

C files hold one string literal per #define. Fortran files hold CHARACTER
parameters whose literal OPARI2 splits into pieces joined by // over
continuation lines; the pieces are joined here into the one value the callee
receives (without the blank padding, see README.md). Standard library only.
"""
import re
import sys

LITERAL = re.compile(r'"([^"\n]*)"')
JOIN = re.compile(r'\s*//[\s&]*$')  # what may sit between two pieces of one string
FORTRAN_LEN = re.compile(r'CHARACTER\s*(?:\(\s*LEN=|\*)(\d+)', re.IGNORECASE)


def strings_of(text):
    pieces = [(m.start(), m.end(), m.group(1)) for m in LITERAL.finditer(text)]
    joined = []
    for i, (start, _end, value) in enumerate(pieces):
        if i > 0 and JOIN.match(text[pieces[i - 1][1]:start]):
            joined[-1] = (joined[-1][0], joined[-1][1] + value)
        else:
            joined.append((start, value))
    return [(start, value) for start, value in joined if re.match(r'\d+\*', value)]


def main():
    for path in sys.argv[1:]:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for start, value in strings_of(text):
            declared = FORTRAN_LEN.findall(text[:start])
            # OPARI2 declares the Fortran constant two characters longer than
            # its literal, so the callee sees two trailing blanks.
            if declared and int(declared[-1]) != len(value) + 2:
                sys.exit(f'{path}: CHARACTER length {declared[-1]} is not {len(value)} + 2')
            print(value)


if __name__ == '__main__':
    main()
