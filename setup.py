"""The optional C kernels of the solver; everything else about the build is in pyproject.toml.

``optional=True``: where no C compiler is found the build goes on without the extension, and
:mod:`loba_dsl.solver.packing` runs its pure-Python kernels (the same answers, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "loba_dsl.solver.native_packing",
            ["loba_dsl/solver/native_packing.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "loba_dsl.solver.native_live",
            ["loba_dsl/solver/native_live.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "loba_dsl.solver.native_candidates",
            ["loba_dsl/solver/native_candidates.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ],
)
