"""Print, as JSON, the public surface of whichever ``kafka`` package this interpreter imports.

Run under kafka-python's virtual environment and under ours by
``test_api_surface.py``, which compares the two.  Standard library only:
it must run on kafka-python's interpreter with ``-I``.
"""

import importlib
import inspect
import json
import sys

CLIENTS = (("kafka", "KafkaProducer"), ("kafka", "KafkaConsumer"), ("kafka.admin", "KafkaAdminClient"))


def parameters(func):
    out = []
    for param in inspect.signature(func).parameters.values():
        if param.name == "self":
            continue
        out.append([param.name, param.kind.name, param.default is not inspect.Parameter.empty])
    return out


def main():
    import kafka
    import kafka.errors

    names = sorted(n for n in dir(kafka) if not n.startswith("_"))
    surface = {"names": [n for n in names if not inspect.ismodule(getattr(kafka, n))],
               "modules": ["kafka." + n for n in names if inspect.ismodule(getattr(kafka, n))],
               "importable": {}, "clients": {}, "errors": {}}
    for module in sys.argv[1:]:  # modules the caller asks about
        try:
            importlib.import_module(module)
            surface["importable"][module] = True
        except ImportError:
            surface["importable"][module] = False
    for module, name in CLIENTS:
        cls = getattr(importlib.import_module(module), name)
        methods = {}
        for attr, func in inspect.getmembers(cls, inspect.isfunction):
            if not attr.startswith("_"):
                methods[attr] = parameters(func)
        config = getattr(cls, "DEFAULT_CONFIG", None)
        surface["clients"][name] = {"config": sorted(config or ()), "methods": methods}
    public = {name: obj for name, obj in vars(kafka.errors).items()
              if inspect.isclass(obj) and issubclass(obj, BaseException) and not name.startswith("_")}
    for name, obj in sorted(public.items()):
        # Bases by the public names they are reachable under, so that an
        # alias (ProtocolError for KafkaProtocolError) compares as the class.
        surface["errors"][name] = {"errno": getattr(obj, "errno", None),
                                   "retriable": getattr(obj, "retriable", None),
                                   "invalid_metadata": getattr(obj, "invalid_metadata", None),
                                   "bases": sorted(other for other, base in public.items()
                                                   if base is not obj and issubclass(obj, base)),
                                   "builtin_bases": sorted(b.__name__ for b in obj.__mro__
                                                           if b.__module__ == "builtins")}
    json.dump(surface, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
