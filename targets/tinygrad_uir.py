#!/usr/bin/env python3
"""Runs .uir programs with tinygrad (imported from PYTHONPATH), for `uopc fuzz --target`.

Each statement becomes one call of tinygrad's Tensor API, so a campaign tests tinygrad's
lazy graph, scheduler, symbolic rewrites and code generation on the device it picks (CPU when
there is no other). It answers by the protocol of docs/ENGINES.md:

    tinygrad_uir.py FILE              print FILE's outputs as `uopc interp` does
    tinygrad_uir.py --persistent      one program path per line on stdin
    tinygrad_uir.py FILE --emit OUT   also write OUT, a standalone tinygrad script
    tinygrad_uir.py --steering        print the `uopc fuzz` flags that keep programs to what
                                      tinygrad shares with the language

What tinygrad does not share with the language is answered with 77 (unsupported) or left out by those
flags; docs/ENGINES.md lists each exclusion with its reason.
"""

import sys

import numpy as np

import numpy_uir
import uir
from uir import Translator, ints, source_of

# What tinygrad does not share with the language (docs/ENGINES.md, Exclusions), by design: ops it
# computes another way, and value classes where its semantics differ. The same exclusions as
# `uopc fuzz` steering flags, so a campaign never generates them, and as checks of each
# program here, so a program from elsewhere is answered 77 instead of a false report.
EXCLUDED_OPS = {
    "div": "x / y is computed as x * (1 / y): two roundings, not IEEE division",
    "recip": "1 / (x * y) is rewritten as (1 / x) * (1 / y): two roundings, not one",
    "exp2": "its own polynomial approximation, more than the language's 1 ulp from libm",
    "log2": "its own polynomial approximation, more than the language's 1 ulp from libm",
    "sin": "its own polynomial approximation, more than the language's 1 ulp from libm",
}
VALUE_CLASSES = {
    "nan": "NaN: max and min order NaN otherwise, and a cast of NaN to i32 raises",
    "signed_zero": "-0: sums start from +0, and max/min order signed zeros otherwise",
    "int_extremes": "i32 beyond 2^15: overflow is undefined in its C and its rewrites assume none",
    "zero_divisor": "idiv or mod by 0: undefined in its C",
}
# min(a, b) is computed as -max(-a, -b), and a - b may be rewritten, so either gives -0 where
# IEEE gives +0: the sign of a zero is not compared.
STEERING = ("--exclude-ops " + ",".join(sorted(EXCLUDED_OPS)) +
            " --no-nan --no-signed-zero --no-int-extremes --no-zero-divisor --signed-zero-equal")

TYPES = {"bool": "dtypes.bool", "i32": "dtypes.int32", "f32": "dtypes.float32",
         "int32": "dtypes.int32", "float32": "dtypes.float32"}
FOLDS = {"add": "sum", "mul": "prod", "max": "max", "min": "min"}
BINARY = {"add": "{} + {}", "sub": "{} - {}", "mul": "{} * {}", "div": "{} / {}",
          "idiv": "{} // {}", "mod": "{} % {}", "max": "{}.maximum({})", "min": "{}.minimum({})",
          "cmplt": "({} < {})", "cmpeq": "({} == {})", "cmpne": "({} != {})",
          "and": "({} & {})", "or": "({} | {})", "xor": "({} ^ {})"}
UNARY = {"neg": "(-{})", "not": "{}.logical_not()", "recip": "{}.reciprocal()",
         "sqrt": "{}.sqrt()", "exp2": "{}.exp2()", "log2": "{}.log2()", "sin": "{}.sin()"}


def value_class(a):
    """The first class of VALUE_CLASSES that array a meets, if any."""
    if a.dtype == np.float32:
        if np.isnan(a).any():
            return "nan"
        if ((a == 0) & np.signbit(a)).any():
            return "signed_zero"
    if a.dtype == np.int32 and a.size and np.abs(a.astype(np.int64)).max() > 2**15:
        return "int_extremes"
    return None


def unsupported(statements, path):
    """Why tinygrad cannot be asked this program ("" when it can): an excluded op, or a value
    class met by some value, as the NumPy engine computes them."""
    for s in statements:
        if s.op in EXCLUDED_OPS:
            return "%s:%d: %s: %s" % (path, s.line, s.op, EXCLUDED_OPS[s.op])
    reference = numpy_uir.NumpyProgram(statements, path)
    with np.errstate(all="ignore"):
        reference.run()
    def zero_in(token):
        return token == "0" if uir.is_literal(token) else (reference.value(token) == 0).any()

    for s in statements:
        if s.op in ("idiv", "mod") and zero_in(s.operands[1]):
            return "%s:%d: %s" % (path, s.line, VALUE_CLASSES["zero_divisor"])
        if s.name in reference.names and (kind := value_class(reference.value(s.name))):
            return "%s:%d: %s is %s" % (path, s.line, s.name, VALUE_CLASSES[kind])
    return ""


class TinygradProgram(Translator):
    literal_forms = {"bool": "Tensor(%s, dtype=dtypes.bool)",
                     "float32": "Tensor(float(%r), dtype=dtypes.float32)",
                     "int32": "Tensor(%d, dtype=dtypes.int32)"}
    prelude = ("import numpy as np\nfrom tinygrad import Tensor, dtypes\n\n" +
               source_of(uir.default_input, uir.format_f32, uir.format_element, uir.same_bits,
                         uir.check))

    def __init__(self, statements, path):
        super().__init__(statements, path, {})

    def run(self):
        why = unsupported(self.statements, self.path)
        if why:
            raise uir.Unsupported(why)
        super().run()

    def dtype_of(self, value):
        return {"bool": "bool", "int": "int32", "float": "float32"}[value.dtype.name]

    def to_numpy(self, value):
        return value.numpy()


    def expression(self, s, args):
        op, a = s.op, s.attrs
        x = args[0] if args else None
        if op == "buffer":
            return "Tensor(default_input(%r, %d, %d))" % (a.get("dtype", "f32"),
                                                          int(s.operands[0]), self.slot(s))
        if op == "stack":
            return "Tensor.stack(%s)" % ", ".join(args)
        if op == "index":
            return "%s[%s]" % (x, ", ".join(self.offsets(s)) or "()")
        if op == "reshape":
            return "%s.reshape(%s)" % (x, tuple(ints(a["shape"])))
        if op == "permute":
            return "%s.permute(%s)" % (x, tuple(ints(a["order"])))
        if op == "expand":
            shape = tuple(ints(a["shape"]))
            source = s.operands[0]
            if uir.is_literal(source) or len(self.value(source).shape) == 0:
                x = "%s.reshape(%s)" % (x, (1,) * len(shape))  # a scalar gets the rank first
            return "%s.expand(%s)" % (x, shape)
        if op == "shrink":
            window = ", ".join("(%s, %s + %d)" % (o, o, n)
                               for o, n in zip(self.offsets(s), ints(a["shape"])))
            return "%s.shrink((%s%s))" % (x, window, "," if len(args) == 2 else "")
        if op == "pad":
            pads = ints(a["pads"])
            widths = tuple(zip(pads[0::2], pads[1::2]))
            return "%s.pad(%s, value=%s.item())" % (x, widths, self.fill(s))
        if op == "flip":
            axes = ints(a.get("axes", "[]"))
            return "%s.flip(%s)" % (x, tuple(axes)) if axes else x
        if op == "reduce":
            pop = int(a.get("pop", "1"))
            if s.trailing:
                x = "%s.permute(%s)" % (x, tuple(self.book_order(s)))
            if pop == 0:
                return x
            dtype = self.dtype(s.operands[0])
            return "%s.%s(axis=%s).cast(%s)" % (x, FOLDS[a["op"]], tuple(range(pop)), TYPES[dtype])
        if op == "stage":
            return "%s.contiguous()" % x
        if op == "cast":
            return "%s.cast(%s)" % (x, TYPES[a["dtype"]])
        if op == "where":
            return "%s.where(%s, %s)" % tuple(args)
        if op == "assert":
            return "check(%r, %d, %s.numpy(), %s.numpy())" % (s.name, s.line, args[0], args[1])
        if op in UNARY:
            return UNARY[op].format(x)
        if op in BINARY:
            return BINARY[op].format(*args)
        raise uir.ProgramError("%s:%d: no op named '%s'" % (self.path, s.line, op))

    def offsets(self, s):
        """Offsets of a shrink or an index as Python ints: a literal as written, a computed
        one read back from its tensor."""
        return [t if uir.is_literal(t) else "int(%s.item())" % self.var(t) for t in s.operands[1:]]

    def emit(self):
        return self.script("# %s, each statement as one tinygrad call." % self.path)


if __name__ == "__main__":
    if sys.argv[1:] == ["--steering"]:
        print(STEERING)
        sys.exit(0)
    try:
        import tinygrad  # noqa: F401  (the translated lines import it again)
    except ImportError as e:
        sys.stderr.write("tinygrad_uir: cannot import tinygrad (%s); put a tinygrad checkout on "
                         "PYTHONPATH\n" % e)
        sys.exit(3)
    sys.exit(uir.serve(sys.argv, TinygradProgram, __doc__))
