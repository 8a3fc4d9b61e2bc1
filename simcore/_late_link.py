"""Make Numba optimise each compiled function's own code once, not once per caller.

Numba compiles every jitted function (each specialisation) into a library of its own.  A
library that calls other jitted functions links their whole libraries into its module and
then runs LLVM's full optimisation pipeline over the result, so the callees' code, already
optimised in their own libraries, is optimised again in every caller, and in every caller's
caller.  simcore's search policies call the open-hand solver through a few layers of jitted
functions (decision, valuation, solver interface, search), and each layer's library held the
whole solver again: LLVM time was about 60% of the search kernels' compile.

``apply()`` makes a library link the libraries of large callees (more than ``LARGE``
instructions) only after its own code is optimised.  Small callees are linked before, as
Numba does, so that LLVM can still inline them.  A large callee would not be inlined anyway
(it is far above LLVM's inlining threshold), and it arrives already optimised by its own
library's pipeline, so the machine code is the same apart from the call into it; its code is
still emitted in every library that calls it, which keeps each library (and Numba's on-disk
cache of it) self-contained.  If the installed Numba's ``CPUCodeLibrary.finalize`` is not the
code this expects, nothing is replaced and Numba behaves as shipped.
"""

from __future__ import annotations

import inspect

LARGE = 1000  # instructions in a callee library's module: linked after the optimisation

# The lines of Numba's finalize this replaces: link every callee library, then optimise.
_EXPECTED = (
    "for library in self._linking_libraries:",
    "self._final_module.link_in(",
    "library._get_module_for_linking(), preserve=True,",
    "self._optimize_final_module()",
    "self._finalize_final_module()",
)

applied = False  # whether CPUCodeLibrary.finalize was replaced (read by the tests)
shipped = None  # Numba's own finalize, kept when replaced
linked_late = 0  # callee libraries linked after their caller's optimisation (read by the tests)


def instructions(library) -> int:
    """Instructions defined in a finalized library's module (counted once, kept on it)."""
    count = getattr(library, "_simcore_instructions", None)
    if count is None:
        module = library._get_module_for_linking()
        count = sum(len(list(block.instructions)) for fn in module.functions
                    if not fn.is_declaration for block in fn.blocks)
        library._simcore_instructions = count
    return count


def _finalize(self):
    """Numba's ``CPUCodeLibrary.finalize``, with large callee libraries linked after the
    library's own code is optimised (see the module docstring)."""
    from numba.core import config
    from numba.core.codegen import require_global_compiler_lock

    if config.DUMP_FUNC_OPT:
        return shipped(self)  # Numba's debug dump of the unlinked module: as shipped
    require_global_compiler_lock()
    self._codegen._check_llvm_bugs()
    self._raise_if_finalized()
    seen, late = set(), []
    for library in self._linking_libraries:
        if library in seen:
            continue
        seen.add(library)
        self._reload_init.update(library._reload_init)  # the parent inherits reload_init
        if instructions(library) > LARGE:
            late.append(library)
        else:
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._optimize_final_module()
    global linked_late
    linked_late += len(late)
    for library in late:
        self._final_module.link_in(library._get_module_for_linking(), preserve=True)
    self._final_module.verify()
    self._finalize_final_module()


def apply() -> bool:
    """Replace ``CPUCodeLibrary.finalize`` (once); returns whether it is replaced."""
    global applied, shipped
    if applied:
        return True
    try:
        from numba.core.codegen import CPUCodeLibrary

        source = inspect.getsource(CPUCodeLibrary.finalize)
    except (ImportError, AttributeError, OSError, TypeError):
        return False
    if any(source.count(part) != 1 for part in _EXPECTED):
        return False
    if not hasattr(CPUCodeLibrary, "_optimize_final_module"):
        return False
    shipped = CPUCodeLibrary.finalize
    CPUCodeLibrary.finalize = _finalize
    applied = True
    return True
