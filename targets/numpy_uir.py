#!/usr/bin/env python3
"""Runs .uir programs with NumPy: a third engine beside uopc's interpreter and compiler.

Every op is written here again from the language's semantics with NumPy's own operations, so
that `uopc fuzz --target` can diff the interpreter against an implementation that shares no
code with it (docs/ENGINES.md). It answers by the protocol of that page:

    numpy_uir.py FILE              print FILE's outputs as `uopc interp` does; exit 0, 1 when an
                                   assert fails, 2 when FILE does not parse
    numpy_uir.py --persistent      read one program path per line on stdin; write each one's
                                   outputs to PATH.out and answer its status on a line
    numpy_uir.py FILE --emit OUT   also write OUT, a standalone NumPy script that computes
                                   FILE's outputs, ready for a bug report

Both text forms are read (targets/uir.py). Programs are expected to be valid (uopc checks the
type rules before it asks); one that is not may get any answer, never a hang.
NUMPY_UIR_PLANT=NAME switches on a planted bug, so that a test can show a campaign finds a
wrong engine: `flip_drops_last_axis` leaves the last of several flipped axes alone,
`idiv_truncates` divides toward zero.
"""

import os
import sys

import numpy as np

import uir
from uir import Translator, ints, source_of

PLANT = os.environ.get("NUMPY_UIR_PLANT", "")
DTYPES = {"bool": "bool_", "i32": "int32", "f32": "float32"}
INT_MIN, INT_MAX = -(2**31), 2**31 - 1

# ---- ops

def wrap(x):
    """An int64 array as i32, modulo 2^32."""
    return ((x.astype(np.int64) + 2**31) % 2**32 - 2**31).astype(np.int32)


def idiv(a, b):
    a, b = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b == 0, 1, b)
    q = np.trunc(a / safe).astype(np.int64) if PLANT == "idiv_truncates" else a // safe
    return wrap(np.where(b == 0, 0, q))


def mod(a, b):
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    safe = np.where(b64 == 0, 1, b64)
    return wrap(np.where(b64 == 0, a64, a64 - (a64 // safe) * safe))


def pick_max(a, b):
    return np.where(a > b, a, b)


def pick_min(a, b):
    return np.where(a < b, a, b)


def f32(fn):
    """A libm function, computed in double and rounded once, as correctly rounded f32 would be."""
    return lambda x: fn(x.astype(np.float64)).astype(np.float32)


def cast(x, dtype):
    if x.dtype == dtype:
        return x
    if dtype == np.bool_:
        return x != 0
    if dtype == np.int32 and x.dtype == np.float32:
        t = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=INT_MAX, neginf=INT_MIN))
        return np.clip(t, INT_MIN, INT_MAX).astype(np.int32)
    return x.astype(dtype)


def arith(op):
    def apply(a, b):
        if a.dtype == np.int32:
            return wrap(op(a.astype(np.int64), b.astype(np.int64)))
        return op(a, b).astype(np.float32)

    return apply


BINARY = {
    "add": arith(lambda a, b: a + b),
    "sub": arith(lambda a, b: a - b),
    "mul": arith(lambda a, b: a * b),
    "div": lambda a, b: np.divide(a, b, dtype=np.float32),
    "idiv": idiv,
    "mod": mod,
    "max": pick_max,
    "min": pick_min,
    "cmplt": lambda a, b: a < b,
    "cmpeq": lambda a, b: a == b,
    "cmpne": lambda a, b: a != b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
}

UNARY = {
    "neg": lambda x: wrap(-x.astype(np.int64)) if x.dtype == np.int32 else np.negative(x),
    "not": np.logical_not,
    "recip": lambda x: np.divide(np.float32(1), x, dtype=np.float32),
    "sqrt": lambda x: np.sqrt(x, dtype=np.float32),
    "exp2": f32(np.exp2),
    "log2": f32(np.log2),
    "sin": f32(np.sin),
}

FOLDS = {
    "add": (arith(lambda a, b: a + b), {np.float32: -0.0, np.int32: 0}),
    "mul": (arith(lambda a, b: a * b), {np.float32: 1.0, np.int32: 1}),
    "max": (pick_max, {np.float32: -np.inf, np.int32: INT_MIN, np.bool_: False}),
    "min": (pick_min, {np.float32: np.inf, np.int32: INT_MAX, np.bool_: True}),
}


def reduce(x, op, pop):
    """A left fold over the leading `pop` axes in row-major order, from the identity."""
    fold, identities = FOLDS[op]
    rest = x.shape[pop:]
    acc = np.full(rest, identities[x.dtype.type], dtype=x.dtype)
    for row in x.reshape((-1,) + rest) if x.size else []:
        acc = fold(acc, row)
    return acc


def shrink(x, offsets, shape):
    offsets = [int(o) for o in offsets]
    if any(o < 0 or o + n > d for o, n, d in zip(offsets, shape, x.shape)):
        raise IndexError("the window leaves the operand")
    return x[tuple(slice(o, o + n) for o, n in zip(offsets, shape))]


def pad(x, pads, fill):
    widths = list(zip(pads[0::2], pads[1::2]))
    return np.pad(x, widths, constant_values=fill) if x.ndim else x


def flip(x, axes):
    if PLANT == "flip_drops_last_axis" and len(axes) > 1:
        axes = axes[:-1]
    return np.flip(x, axis=tuple(axes)) if axes else x


# ---- the program as NumPy

class NumpyProgram(Translator):
    literal_forms = {"bool": "np.bool_(%s)", "float32": "np.float32(%r)", "int32": "np.int32(%d)"}
    # The helpers above and the language's inputs and equality: what the translated lines run on.
    prelude = "import numpy as np\n\nINT_MIN, INT_MAX = -(2**31), 2**31 - 1\n\n" + source_of(
        uir.default_input, uir.format_f32, uir.format_element, uir.same_bits, uir.check) + (
        lambda text: text[text.index("# ---- ops"): text.index("# ---- the program")])(
        open(os.path.abspath(__file__)).read())

    def __init__(self, statements, path):
        super().__init__(statements, path, {"PLANT": PLANT})

    def dtype_of(self, value):
        return value.dtype.name


    def expression(self, s, args):
        op, a = s.op, s.attrs
        x = args[0] if args else None
        if op == "buffer":
            return "default_input(%r, %d, %d)" % (a.get("dtype", "f32"), int(s.operands[0]),
                                                  self.slot(s))
        if op == "stack":
            return "np.stack(np.broadcast_arrays(%s))" % ", ".join(args)
        if op == "index":
            return "np.asarray(%s[%s])" % (x, ", ".join("int(%s)" % j for j in args[1:]) or "()")
        if op == "reshape":
            return "%s.reshape(%s)" % (x, ints(a["shape"]))
        if op == "permute":
            return "np.transpose(%s, %s)" % (x, ints(a["order"]))
        if op == "expand":
            return "np.broadcast_to(%s, %s).copy()" % (x, ints(a["shape"]))
        if op == "shrink":
            return "shrink(%s, [%s], %s)" % (x, ", ".join(args[1:]), ints(a["shape"]))
        if op == "pad":
            return "pad(%s, %s, %s)" % (x, ints(a["pads"]), self.fill(s))
        if op == "flip":
            return "flip(%s, %s)" % (x, ints(a.get("axes", "[]")))
        if op == "reduce":
            if s.trailing:
                x = "np.transpose(%s, %s)" % (x, self.book_order(s))
            return "reduce(%s, %r, %d)" % (x, a["op"], int(a.get("pop", "1")))
        if op == "stage":
            return x
        if op == "cast":
            return "cast(%s, np.%s)" % (x, DTYPES[a["dtype"]])
        if op == "where":
            return "np.where(*np.broadcast_arrays(%s))" % ", ".join(args)
        if op == "assert":
            return "check(%r, %d, *np.broadcast_arrays(%s))" % (s.name, s.line, ", ".join(args))
        if op in UNARY:
            return "np.asarray(UNARY[%r](%s))" % (op, x)
        if op in BINARY:
            return "np.asarray(BINARY[%r](*np.broadcast_arrays(%s)))" % (op, ", ".join(args))
        raise uir.ProgramError("%s:%d: no op named '%s'" % (self.path, s.line, op))

    def emit(self):
        return self.script("# %s, each statement as one line of NumPy.\nPLANT = %r" % (
            self.path, PLANT))


if __name__ == "__main__":
    sys.exit(uir.serve(sys.argv, NumpyProgram, __doc__))
