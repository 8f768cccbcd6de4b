"""kafka-python 0.9's module path of the classic producer base class."""

from kafka.legacy.base import *  # noqa: F401,F403
from kafka.legacy.base import __all__  # noqa: F401
