"""Build the solver's compiled search core; everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("milligan.solver._core", ["src/milligan/solver/_core.pyx"])],
        compiler_directives={"language_level": "3"},
        build_dir="build/cython",
    ),
)
