"""The package ships the folders the server reads beside its code: each folder of the
checkout becomes a data package inside `server` (templates/ is server/templates in a
wheel), every file under it included, subfolders too. server/paths.py finds them in
either place. The rest of the metadata is in pyproject.toml."""

from setuptools import find_packages, setup

SHIPPED = ("templates", "static", "migrations", "deploy")

setup(
    packages=find_packages(include=["server", "server.*"]) + [f"server.{d}" for d in SHIPPED],
    package_dir={f"server.{d}": d for d in SHIPPED},
    package_data={f"server.{d}": ["**/*"] for d in SHIPPED},
    exclude_package_data={f"server.{d}": ["**/__pycache__/*"] for d in SHIPPED},
)
