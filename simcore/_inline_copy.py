"""Make Numba's ``inline="always"`` copy each inlined function's IR once, not once per block.

simcore's solver, search policies and engines are built from small jitted functions inlined
into a few large kernels.  Numba inlines a function by deep-copying its IR (twice: a copy to
mutate and a copy to hand back), block by block; every block's copy also deep-copies the
function's whole variable scope, so the cost grows with blocks times variables, and nested
inlining pays it again at every level.  On simcore's kernels that copying was a third of the
compile (a known Numba issue: "spurious deep copies in inlining").

``apply()`` replaces ``InlineWorker.inline_ir`` with the same code except for those copies: the
callee's blocks are copied in one pass with one memo (the scope is copied once and shared by
the copied blocks, as the blocks of any function share theirs), and the unmutated IR handed
back is the caller's own (never mutated here, since only the copy is).  The compiled kernels
are the same; only the time to build them changes.  If the installed Numba's ``inline_ir`` is
not the code this expects, nothing is replaced and Numba behaves as shipped.
"""

from __future__ import annotations

import inspect
import textwrap

_COPY_PER_BLOCK = """\
        def copy_ir(the_ir):
            kernel_copy = the_ir.copy()
            kernel_copy.blocks = {}
            for block_label, block in the_ir.blocks.items():
                new_block = copy.deepcopy(the_ir.blocks[block_label])
                kernel_copy.blocks[block_label] = new_block
            return kernel_copy
"""
_COPY_ONCE = """\
        def copy_ir(the_ir):
            kernel_copy = the_ir.copy()
            memo = {}
            kernel_copy.blocks = {label: copy.deepcopy(block, memo)
                                  for label, block in the_ir.blocks.items()}
            return kernel_copy
"""
_FIRST_COPY = "        callee_ir = copy_ir(callee_ir)\n"
_SECOND_COPY = "        callee_ir_original = copy_ir(callee_ir)\n"

applied = False  # whether Numba's inline_ir was replaced (read by the tests)
shipped = None  # Numba's own inline_ir, kept when replaced


def apply() -> bool:
    """Replace ``InlineWorker.inline_ir`` (once); returns whether it is replaced."""
    global applied, shipped
    if applied:
        return True
    try:
        from numba.core import inline_closurecall as module

        source = inspect.getsource(module.InlineWorker.inline_ir)
    except (ImportError, AttributeError, OSError, TypeError):
        return False
    if any(source.count(part) != 1 for part in (_COPY_PER_BLOCK, _FIRST_COPY, _SECOND_COPY)):
        return False
    source = (source.replace(_COPY_PER_BLOCK, _COPY_ONCE)
              .replace(_FIRST_COPY, "        callee_ir_original = callee_ir\n" + _FIRST_COPY)
              .replace(_SECOND_COPY, ""))
    scope: dict = {}
    exec(compile(textwrap.dedent(source), module.__file__, "exec"), module.__dict__, scope)
    scope["inline_ir"].__doc__ = module.InlineWorker.inline_ir.__doc__
    shipped = module.InlineWorker.inline_ir
    module.InlineWorker.inline_ir = scope["inline_ir"]
    applied = True
    return True
