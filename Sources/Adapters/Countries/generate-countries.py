#!/usr/bin/env python3
"""Writes countries.json, the bundled ISO 3166-1 list, from Debian's iso-codes package.

    apt-get install iso-codes && python3 generate-countries.py > countries.json

English names are iso-codes' common name when it has one ("Bolivia"), else its official name.
French names come from iso-codes' French translation catalogue.
"""
import gettext
import json
import sys

CODES = "/usr/share/iso-codes/json/iso_3166-1.json"
FRENCH = "/usr/share/locale/fr/LC_MESSAGES/iso_3166-1.mo"

with open(CODES, encoding="utf-8") as f:
    entries = json.load(f)["3166-1"]
with open(FRENCH, "rb") as f:
    french = gettext.GNUTranslations(f)

countries = []
for entry in entries:
    english = entry.get("common_name", entry["name"])
    translated = french.gettext(english)
    if translated == english and "common_name" in entry:
        translated = french.gettext(entry["name"])
    countries.append({
        "code": entry["alpha_2"].upper(),
        "name": english,
        "frenchName": translated,
    })
countries.sort(key=lambda c: c["name"])
json.dump(countries, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
sys.stdout.write("\n")
