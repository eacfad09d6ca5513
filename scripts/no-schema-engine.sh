#!/bin/sh
echo "the native schema engine is not used here: migrations run through scripts/migrate" >&2
exit 1
