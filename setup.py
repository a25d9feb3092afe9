"""Build the solver's compiled search core; everything else is in pyproject.toml.

The core is optional: without a working C compiler (or Python's headers) the
install goes on with a warning, and the solver uses its pure-Python search.
"""

import sys

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, ExecError, PlatformError


class OptionalBuildExt(build_ext):
    """Build the extensions, or warn and go on without them."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, ExecError, PlatformError, OSError) as error:
            self._skip(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, ExecError, PlatformError, OSError) as error:
            self._skip(error, ext.name)

    def _skip(self, error: Exception, name: str = "the compiled solver core") -> None:
        print(
            f"WARNING: could not build {name} ({error}); milligan will use its "
            "pure-Python solver, which is slower. Install a C compiler and the "
            "Python headers, then reinstall, for the fast one.",
            file=sys.stderr,
        )


setup(
    ext_modules=cythonize(
        [Extension("milligan.solver._core", ["src/milligan/solver/_core.pyx"])],
        compiler_directives={"language_level": "3"},
        build_dir="build/cython",
    ),
    cmdclass={"build_ext": OptionalBuildExt},
)
