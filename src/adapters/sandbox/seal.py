"""SPADE Lab sandbox seal: cuts Python off from JavaScript before any environment code runs.

Run once per interpreter, after the harness is installed and after the host removed the blocked
modules from the builtin module table (seal-inittab.ts). Afterwards Python holds no reference path
to a JS object: the modules that reach JS are gone and emptied, the import finder that kept JS
proxies is emptied and removed, no builtin or extension module can be created any more (so
neither `_pyodide_core` nor `ctypes` can come back), the types that could build a JS value refuse
to construct, and the gc can no longer list every object.
"""

import _imp
import asyncio.events
import gc
import sys
import time

# Builtin modules that reach JS or write interpreter memory; seal-inittab.ts removes the same names.
BLOCKED_BUILTINS = frozenset({
    "_pyodide_core", "_ctypes", "_testcapi", "_testinternalcapi", "_testlimitedcapi", "_testbuffer",
    "_testclinic", "_testclinic_limited", "_testmultiphase", "_testsinglephase", "_xxtestfuzz",
    "_remote_debugging",
})
_JS_ROOTS = frozenset({"js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "micropip", "pyodide_http"})


def _reaches_js(name):
    return isinstance(name, str) and name.split(".")[0] in _JS_ROOTS


def _refuse(*args, **kwargs):
    raise TypeError("JavaScript objects cannot be created inside the SPADE sandbox")


def import_open_builtins():
    """Imports every builtin module that is not blocked; also run before a memory snapshot is taken, so restores skip it."""
    for name in sys.builtin_module_names:
        if name not in BLOCKED_BUILTINS and name not in sys.modules:
            try:
                __import__(name)
            except ImportError:
                pass


def _preimport_builtins():
    # Builtins are imported now, while they still can be: after the seal none can be created.
    import_open_builtins()
    sys.builtin_module_names = tuple(n for n in sys.builtin_module_names if n not in BLOCKED_BUILTINS)


def _all_classes():
    seen, todo = set(), [object]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen


def _disarm_js_classes():
    # Classes of the JS bridge outlive their modules (every class is listed by __subclasses__):
    # empty the Python-level ones and make every one of them refuse construction.
    for cls in _all_classes():
        module = getattr(cls, "__module__", "")
        if not (_reaches_js(module) or (module == "builtins" and "Js" in cls.__name__)):
            continue
        for key in list(vars(cls)):
            if key not in ("__module__", "__doc__", "__dict__", "__weakref__"):
                try:
                    delattr(cls, key)
                except (AttributeError, TypeError):
                    pass
        for key in ("__new__", "__init__", "__init_subclass__", "__class_getitem__"):
            try:
                setattr(cls, key, _refuse)
            except (AttributeError, TypeError):
                pass


def _unpatch_sleep():
    # Pyodide wraps time.sleep in a function of its webloop module that asks JS whether it can
    # suspend; that module's names are cleared below, so the wrapper would raise NameError. The
    # original (kept as __wrapped__) waits in place: a short sleep works, a long one runs into the
    # call's timeout like any other hang.
    time.sleep = getattr(time.sleep, "__wrapped__", time.sleep)


def _drop_js_modules():
    for finder in list(sys.meta_path):
        if _reaches_js(type(finder).__module__):
            proxies = getattr(finder, "jsproxies", None)
            if isinstance(proxies, dict):
                proxies.clear()
            sys.meta_path.remove(finder)
    sys.path_hooks[:] = [h for h in sys.path_hooks if not _reaches_js(getattr(h, "__module__", ""))]
    sys.path_importer_cache.clear()
    asyncio.events._event_loop_policy = None
    asyncio.events._set_running_loop(None)
    for hook in ("excepthook", "displayhook", "breakpointhook", "unraisablehook"):
        setattr(sys, hook, getattr(sys, "__" + hook + "__"))
    for name in [n for n in sys.modules if _reaches_js(n)]:
        module = sys.modules.pop(name)
        try:
            vars(module).clear()
        except TypeError:
            pass
    # None halts an import with ModuleNotFoundError. An environment may delete these entries, but
    # then finds only pyodide's pure-Python stand-ins, which cannot reach JS without _pyodide_core.
    for root in _JS_ROOTS:
        sys.modules[root] = None


def blocked_builtins():
    """The blocked builtin module names, comma-separated, for the host's builtin-table patch."""
    return ",".join(sorted(BLOCKED_BUILTINS))


def _scrub_module_globals():
    # Pyodide plants JS values in standard modules (json.encoder._JSNULL is jsnull): set every
    # module global that is an instance of a JS-bridge class to None.
    for module in list(sys.modules.values()):
        try:
            space = vars(module)
        except TypeError:
            continue
        for key, value in list(space.items()):
            if not isinstance(value, type) and _reaches_js(getattr(type(value), "__module__", "")):
                space[key] = None


def seal():
    """Cuts the interpreter off from JS; call once, before any environment code runs."""
    still = [name for name in BLOCKED_BUILTINS if _imp.is_builtin(name)]
    if still:
        raise RuntimeError(f"the builtin module table still lists {still}; refusing to run unsealed")
    _preimport_builtins()
    _unpatch_sleep()
    _drop_js_modules()
    _scrub_module_globals()
    _disarm_js_classes()
    for name in ("create_builtin", "exec_builtin", "create_dynamic", "exec_dynamic"):
        if hasattr(_imp, name):
            delattr(_imp, name)
    gc.collect()
    for name in ("get_objects", "get_referrers", "get_referents"):
        delattr(gc, name)
