"""Validates an OpenAPI document with openapi-spec-validator; prints "valid" or the first error.

Usage: openapi_check.py FILE
"""
import sys

from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename

document, _ = read_from_filename(sys.argv[1])
try:
    validate(document)
except Exception as error:  # the validator's errors say where in the document
    print(f"invalid: {error}")
    sys.exit(1)
print("valid")
