#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing (browser tests drive /usr/bin/chromium; no browser is downloaded).
set -euo pipefail
if [[ -x /usr/bin/chromium ]]; then exit 0; fi
if [[ $(id -u) -ne 0 ]]; then
  echo "Browser tests need Debian's chromium: run 'sudo apt-get install -y chromium'." >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
