"""Which packages the wheel holds: one import package, `interpreter`, with the repository's
data folders mapped inside it.

The repository keeps `grammar/`, `gamedefs/`, `cards/` and `examples/` at its top, where a
designer looks for them; the build maps each to `interpreter/data/FOLDER/`, so `pip install .`
adds `interpreter` and nothing else to site-packages (top-level names such as `grammar` or
`examples` would collide with other distributions). The packages are found, not listed, so a
new layer of the interpreter, game folder or card set ships with no edit here; the files each
package ships are pyproject.toml's `[tool.setuptools.package-data]`, the rest of the build's
settings are there too. `interpreter/core/paths.py` reads the data in either layout.
"""

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

DATA_FOLDERS = ("grammar", "gamedefs", "cards", "examples")
SKIP = ["__pycache__", "*.__pycache__"]


def data_package_dirs() -> dict[str, str]:
    """`interpreter.data.FOLDER` built from the repository's `FOLDER/`, for each data folder
    (their subfolders follow: setuptools maps a package by its nearest mapped parent)."""
    return {f"interpreter.data.{folder}": folder for folder in DATA_FOLDERS}


def packages() -> list[str]:
    """The interpreter's packages and the data packages with every subfolder of theirs
    (a subfolder is a namespace package, holding only data)."""
    found = find_namespace_packages(include=["interpreter", "interpreter.*"], exclude=SKIP)
    for name, folder in data_package_dirs().items():
        found += [name, *(f"{name}.{sub}" for sub in find_namespace_packages(where=folder, exclude=SKIP))]
    return found


class BuildPy(build_py):
    """The usual build, less the data folders an older build left at the top of `build/lib`
    (before they moved inside `interpreter/`): the wheel is made of all that folder holds, so
    a `pip install .` from a checkout built before would ship them again as top-level names."""

    def run(self) -> None:
        for folder in DATA_FOLDERS:
            shutil.rmtree(Path(self.build_lib, folder), ignore_errors=True)
        super().run()


setup(packages=packages(), package_dir=data_package_dirs(), cmdclass={"build_py": BuildPy})
