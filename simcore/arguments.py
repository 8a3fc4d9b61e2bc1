"""The options of ``simcore.simulate`` and ``simcore.solve_deals`` as Python values.

``policy``, ``rules``, ``predeal`` and ``conditions`` take the command line's strings
(``["heuristic", "0=pimc"]``, ``["target=300"]``, ``["0=AS,KS"]``, ``["0:longest>=5"]``) and
the values a Python caller writes::

    policy={0: "pimc", "bid": "heuristic"}          # seat or decision -> name (or a jitted function)
    rules={"target": 300, "must_break_spades": False}
    predeal={0: "AS KS QS", "upcard": "JH"}         # or {0: ["AS", "KS"]}, {0: [51, 50]}
    conditions=[(1, "suit:H", ">=", 3), "dealer:hcp>=12"]

Each is turned here into the form the games read, so a Python value and its command-line text
make the same run (the same manifest), and a value of the wrong kind is one ``SimcoreError``
line, as a bad command-line string is.
"""

from __future__ import annotations

import operator
from typing import Any

from simcore.cards import parse_cards
from simcore.errors import SimcoreError


def normalize(policy=None, rules=None, predeal=None, conditions=None):
    """``(policy, rules, predeal, conditions)`` in the forms the games read."""
    return policy_specs(policy), rules_options(rules), predeal_slots(predeal), condition_texts(conditions)


def policy_specs(policy) -> list[str] | dict[str, Any] | None:
    """``--policy`` strings; a dict that holds a jitted play function stays a dict (str keys)."""
    if policy is None:
        return None
    if isinstance(policy, str):
        return [policy]
    if isinstance(policy, dict):
        items = {}
        for key, value in policy.items():
            name = _key(key, "policy")
            if not (isinstance(value, str) or callable(value)):
                raise SimcoreError(f"policy {name!r}: expected a policy name such as 'heuristic' "
                                   f"(or, for a seat, a jitted play function), not {value!r}")
            if name in items:
                raise SimcoreError(f"policy {name!r} is given twice")
            items[name] = value
        if any(callable(v) for v in items.values()):
            return items
        return [f"{k}={v}" for k, v in items.items()]
    if isinstance(policy, (list, tuple)):
        return _strings(policy, "policy", "NAME, SEAT=NAME or DECISION=NAME (or a dict such as "
                        "{0: 'pimc'})")
    raise SimcoreError(f"policy must be a name, a list such as ['heuristic', '0=pimc'] or a dict "
                       f"such as {{0: 'pimc'}}, not {policy!r}")


def _strings(items, what: str, expected: str) -> list[str]:
    """``items`` as a list, each one a command-line string; else SimcoreError naming the first
    that is not."""
    for item in items:
        if not isinstance(item, str):
            raise SimcoreError(f"{what} {item!r}: expected {expected}")
    return list(items)


def rules_options(rules) -> dict[str, str] | None:
    """Rules options as ``{name: text}``, each value written as on the command line
    (``True`` -> ``"true"``, ``300`` -> ``"300"``, ``None`` -> ``"none"``)."""
    if rules is None:
        return None
    if isinstance(rules, str):
        rules = [rules]
    if isinstance(rules, (list, tuple)):
        pairs = {}
        for item in rules:
            key, sep, value = item.partition("=") if isinstance(item, str) else ("", "", "")
            if not sep or not key.strip():
                raise SimcoreError(f"rules {item!r} must look like KEY=VALUE (or use a dict such as "
                                   "{'target': 300})")
            pairs[key.strip()] = value.strip()
        return pairs
    if isinstance(rules, dict):
        return {_key(k, "rules"): _rule_text(_key(k, "rules"), v) for k, v in rules.items()}
    raise SimcoreError(f"rules must be a dict such as {{'target': 300}} or KEY=VALUE strings, "
                       f"not {rules!r}")


def _rule_text(name: str, value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (str, int, float)):
        return str(value)
    raise SimcoreError(f"rules option {name}={value!r}: expected a number, true/false or a word")


def predeal_slots(predeal):
    """``--predeal`` strings pass through; a dict becomes ``{slot: cards}``, its cards a text
    (``"AS KS"``), a card id or mask, or a list of card names and ids (turned into ids)."""
    if predeal is None:
        return None
    if isinstance(predeal, str):
        return [predeal]
    if isinstance(predeal, (list, tuple)):
        return _strings(predeal, "predeal", "SLOT=CARDS, e.g. 0=AS,KS (or a dict such as "
                        "{0: 'AS KS', 'upcard': 'JH'})")
    if isinstance(predeal, dict):
        slots = {}
        for key, value in predeal.items():
            slot = _key(key, "predeal")
            if slot in slots:
                raise SimcoreError(f"--predeal: slot {slot!r} is given twice")
            slots[slot] = _cards(slot, value)
        return slots
    raise SimcoreError(f"predeal must be a dict such as {{0: 'AS KS', 'upcard': 'JH'}} or SLOT=CARDS "
                       f"strings, not {predeal!r}")


def _cards(slot: str, value):
    if isinstance(value, str):
        return value
    if _whole(value) is not None:
        return _whole(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        ids = []
        for c in value:
            if isinstance(c, str):
                ids.extend(parse_cards(c))
            elif _whole(c) is not None:
                ids.append(_whole(c))
            else:
                raise SimcoreError(f"--predeal {slot}: {c!r} is not a card (use 'AS' or a card id 0-51)")
        if len(set(ids)) != len(ids):
            raise SimcoreError(f"--predeal {slot}: a card is given twice")
        return ids
    raise SimcoreError(f"--predeal {slot}: expected cards such as 'AS KS' or ['AS', 'KS'], not {value!r}")


def condition_texts(conditions) -> list[str] | None:
    """``--condition`` texts; a tuple ``(SEAT, FEATURE, OP, N)`` becomes ``"SEAT:FEATURE OP N"``."""
    if conditions is None:
        return None
    if isinstance(conditions, str):
        return [conditions]
    if not isinstance(conditions, (list, tuple)):
        raise SimcoreError(f"conditions must be a list such as ['0:longest>=5'] or "
                           f"[(0, 'longest', '>=', 5)], not {conditions!r}")
    texts = []
    for item in conditions:
        if isinstance(item, str):
            texts.append(item)
        elif (isinstance(item, (list, tuple)) and len(item) == 4
              and isinstance(item[0], (str, int)) and not isinstance(item[0], bool)
              and isinstance(item[1], str) and isinstance(item[2], str)
              and isinstance(item[3], int) and not isinstance(item[3], bool)):
            seat, feature, op, number = item
            texts.append(f"{seat}:{feature}{op}{number}")
        else:
            raise SimcoreError(f"condition {item!r}: expected a text such as '0:longest>=5' or a "
                               "tuple (SEAT, FEATURE, OP, N) such as (0, 'longest', '>=', 5)")
    return texts


def _whole(value) -> int | None:
    """``value`` as an int if it is a whole number (numpy integers included, bools not)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def _key(key, what: str) -> str:
    if isinstance(key, bool) or not isinstance(key, (str, int)):
        raise SimcoreError(f"{what} key {key!r}: expected a seat number or a name")
    return str(key).strip()
