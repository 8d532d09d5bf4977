"""Compiled twins of the learning adapters' hottest modules.

An environment step writes the seat's observation tensor, and in Python that
writing costs about as much as the rules core's whole decision
(``make bench``'s ``rl.<game>.writer_vs_decision``). The writers are typed
Python, so mypyc (mypy's compiler, which turns typed modules into C extensions)
compiles the same source into a module that runs the same code faster: there is
no second implementation to keep in step. The one exception is the plan engine
(:mod:`senet.rl.cells`), whose twin is written in C beside it (``cells.c``): a
module with a ``.c`` file beside it is built from that file, and the tests hold the
two to the same results.

Each encoding names the modules worth compiling (:attr:`RlEncoding.native_modules
<senet.rl.encoding.RlEncoding.native_modules>`). ``python -m senet.rl.native build``
(``make install`` runs it) compiles each into its *twin*, the module
``senet.rl._native.<name>`` in this package (its shared libraries only), stamped
with the SHA-256 of the source it was built from (of both files for a C twin).
:func:`preferred` hands out the twin of a module only while that stamp matches the
module's source now, so an edited module is never shadowed by an old build: it runs
as Python (with one warning naming the command that rebuilds it) until the twin is
built again. ``SENET_RL_NATIVE=0`` turns the twins off. Without mypy or a C compiler
the build says so and everything runs as Python, unchanged but slower (the first
writer made says so once).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import logging
import os
import shutil
import site
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import senet
import senet.rl

log = logging.getLogger("senet.rl.native")

#: The package of the twins: ``senet.rl._native``, a folder of built libraries.
TWIN_PACKAGE = "senet.rl._native"
#: The modules every environment runs, whatever its game (the action space's
#: identity lookups and masks).
SHARED_MODULES = ("senet.rl.identity",)
#: Set to ``0`` to run every module as Python.
SWITCH = "SENET_RL_NATIVE"
#: The twin's constant naming the digest of the source it was compiled from.
DIGEST_NAME = "SOURCE_DIGEST"
#: What mypy needs to compile the writers on its own (no project configuration).
_MYPY_CONFIG = "[mypy]\nignore_missing_imports = True\n"

_warned: set[str] = set()
#: The key of the one warning that twins are not built (whichever module asks first).
_UNBUILT = "(not built)"


def _warn_once(key: str, message: str, name: str | None = None) -> None:
    """Log ``message`` (about the module ``name``, else ``key``) once per process per key."""
    if key not in _warned:
        _warned.add(key)
        log.warning(message, key if name is None else name)


def twin_name(module: str) -> str:
    """The twin of ``module``: ``senet.rl.archeos.tensor`` → ``senet.rl._native.archeos_tensor``."""
    return f"{TWIN_PACKAGE}.{module.removeprefix('senet.rl.').replace('.', '_')}"


def source_digest(module: str) -> str:
    """SHA-256 of ``module``'s source file (and of its C source, where it has one),
    as its twin is stamped with.

    Raises:
        ModuleNotFoundError: no such module, or one without a source file.
    """
    digest = hashlib.sha256(_source(module).read_bytes())
    c_source = _c_source(module)
    if c_source is not None:
        digest.update(c_source.read_bytes())
    return digest.hexdigest()


def _c_source(module: str) -> Path | None:
    """The module's twin written in C (``cells.c`` beside ``cells.py``), if it has one."""
    path = _source(module).with_suffix(".c")
    return path if path.is_file() else None


def _source(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        raise ModuleNotFoundError(f"{module} has no Python source to compile")
    return Path(spec.origin)


def enabled() -> bool:
    """Whether twins are used at all (``SENET_RL_NATIVE`` is not ``0``)."""
    return os.environ.get(SWITCH, "1") != "0"


@contextmanager
def python_only() -> Iterator[None]:
    """Within: every writer made runs as Python (``SENET_RL_NATIVE=0``), for a
    baseline or a comparison beside the twins."""
    before = os.environ.get(SWITCH)
    os.environ[SWITCH] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[SWITCH]
        else:
            os.environ[SWITCH] = before


def _built_twin(module: str) -> ModuleType | None:
    """The twin of ``module`` if one is built, whatever source it came from."""
    try:
        return importlib.import_module(twin_name(module))
    except ImportError:
        return None


def current_twin(module: str) -> ModuleType | None:
    """The twin of ``module`` if one is built from its source as it is now."""
    twin = _built_twin(module)
    if twin is None or getattr(twin, DIGEST_NAME, None) != source_digest(module):
        return None
    return twin


def preferred(module: ModuleType) -> ModuleType:
    """``module``'s twin when it is current and twins are on, else ``module`` itself.

    Callers take the classes they build from what this returns, all from one
    module (a twin's functions accept its own classes only). A stale twin is
    warned of once per module, and twins not built at all once per process (unless
    ``SENET_RL_NATIVE=0`` chose Python).
    """
    if not enabled():
        return module
    twin = current_twin(module.__name__)
    if twin is None and _built_twin(module.__name__) is not None:
        _warn_once(
            module.__name__,
            "%s changed since its compiled twin was built: it runs as Python "
            "(python -m senet.rl.native build compiles it again)",
        )
    elif twin is None:
        _warn_once(
            _UNBUILT,
            "%s runs as Python: no compiled twin is built (python -m senet.rl.native "
            "build compiles the learning writers, which step the environments about "
            "1.4 to 1.6 times as fast; SENET_RL_NATIVE=0 chooses Python and says nothing)",
            module.__name__,
        )
    return module if twin is None else twin


def native_modules() -> list[str]:
    """Every module worth compiling: those every environment uses, then those the
    encodings ask for, in the encodings' order."""
    from senet.rl.encoding import ENCODINGS

    names = list(SHARED_MODULES)
    for encoding in ENCODINGS.all():
        names += [n for n in encoding.native_modules if n not in names]
    return names


def _twin_folder() -> Path:
    """Where the twins go: ``senet/rl/_native`` (a folder of libraries, no source)."""
    return Path(senet.rl.__file__).resolve().parent / "_native"


def build(
    modules: Sequence[str] | None = None,
    *,
    force: bool = False,
    out: Callable[[str], None] = print,
) -> int:
    """Compile the twin of each of ``modules`` (default: :func:`native_modules`)
    whose twin is missing or out of date (all with ``force``); returns how many
    could not be compiled (each says why)."""
    failed = 0
    folder = _twin_folder()
    for module in native_modules() if modules is None else modules:
        if not force and current_twin(module) is not None:
            out(f"{module}: compiled, up to date")
            continue
        error = _compile(module, folder)
        if error:
            failed += 1
            out(f"{module}: not compiled ({error}); it runs as Python")
        else:
            out(f"{module}: compiled into {twin_name(module)}")
    importlib.invalidate_caches()
    return failed


def _compile(module: str, folder: Path) -> str:
    """Compile one twin into ``folder``; "" when done, else why not.

    mypyc compiles a source file into libraries beside it, named by the file's
    place under its working folder: the twin's source (the module's, stamped) is
    written into ``folder`` for the build and removed after it, with mypyc's own
    build and cache folders.
    """
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        return "no C compiler (cc) on the PATH"
    c_source = _c_source(module)
    if c_source is not None and importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed: pip install setuptools"
    if c_source is None and importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed: pip install mypy"
    short = twin_name(module).rsplit(".", 1)[1]
    folder.mkdir(exist_ok=True)
    for old in [*folder.glob(f"{short}.*"), *folder.glob(f"{short}__mypyc.*")]:
        old.unlink()
    if c_source is not None:
        return _compile_c(module, c_source, folder)
    twin_source = folder / f"{short}.py"
    twin_source.write_text(
        _source(module).read_text() + f'\n{DIGEST_NAME}: str = "{source_digest(module)}"\n'
    )
    with tempfile.TemporaryDirectory(prefix="senet-native-") as work:
        config = Path(work) / "mypy.ini"
        config.write_text(_MYPY_CONFIG + f"cache_dir = {Path(work) / 'cache'}\n")
        own = folder.parents[1]  # the senet folder holding rl/_native
        if own.parent in {Path(p).resolve() for p in site.getsitepackages()}:
            # An installed package: mypy refuses site-packages as a folder of sources
            # (it would read every module there as the project's), so it is given a
            # folder holding only a link to senet.
            root = Path(work) / "root"
            root.mkdir()
            (root / "senet").symlink_to(own, target_is_directory=True)
            search: list[str] = []
        else:
            # A checkout: senet's portions (server, clients, proto) are the sources.
            root = own.parent
            search = [str(Path(p).resolve().parent) for p in senet.__path__ if Path(p).is_dir()]
        env = {**os.environ, "MYPYPATH": os.pathsep.join(search)}
        leftovers = [p for p in (root / "build",) if not p.exists()]
        try:
            command = [sys.executable, "-m", "mypyc", "--config-file", str(config)]
            command += ["--explicit-package-bases", f"senet/rl/_native/{short}.py"]
            done = subprocess.run(
                command, cwd=root, env=env, capture_output=True, text=True, check=False
            )
        finally:
            twin_source.unlink()
            for path in leftovers:
                shutil.rmtree(path, ignore_errors=True)
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines()
        return lines[-1] if lines else f"mypyc exited with {done.returncode}"
    if not list(folder.glob(f"{short}.*")):
        return "mypyc made no library"
    return ""


def _compile_c(module: str, source: Path, folder: Path) -> str:
    """Compile a module's C twin (its ``.c`` file) into ``folder`` with setuptools,
    stamped with the digest (the ``SOURCE_DIGEST`` macro); "" when done, else why not.
    (:func:`_compile` has cleared the folder of the twin's old libraries.)"""
    short = twin_name(module).rsplit(".", 1)[1]
    script = (
        "import sys\n"
        "from setuptools import Extension, setup\n"
        "name, source, digest = sys.argv[1:4]\n"
        "sys.argv[1:] = ['-q', 'build_ext', '--build-lib', '.', '--build-temp', 'temp']\n"
        "setup(name=name, script_args=sys.argv[1:], ext_modules=[Extension(name, [source],\n"
        "    define_macros=[('SOURCE_DIGEST', '\"' + digest + '\"')])])\n"
    )
    with tempfile.TemporaryDirectory(prefix="senet-native-") as work:
        command = [sys.executable, "-c", script, short, str(source), source_digest(module)]
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=False)
        built = list(Path(work).glob(f"{short}.*.so")) + list(Path(work).glob(f"{short}.*.pyd"))
        if done.returncode != 0 or not built:
            lines = (done.stdout + done.stderr).strip().splitlines()
            return lines[-1] if lines else "the C compiler made no library"
        shutil.move(str(built[0]), folder / built[0].name)
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m senet.rl.native", description=__doc__)
    parser.add_argument("command", choices=["build", "status"])
    parser.add_argument("--force", action="store_true", help="compile even up-to-date twins")
    args = parser.parse_args(argv)
    if args.command == "status":
        for module in native_modules():
            state = "compiled, up to date" if current_twin(module) else "runs as Python"
            print(f"{module}: {state}")
        return 0
    return 1 if build(force=args.force) else 0


if __name__ == "__main__":
    sys.exit(main())
