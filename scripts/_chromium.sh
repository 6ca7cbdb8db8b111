# Makes sure the browser tests (tests/pages/) have Debian's Chromium at /usr/bin/chromium. Sourced by
# scripts/test. Playwright drives it; its own browser download is never used (it cannot be fetched here).
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -x /usr/bin/chromium ]; then
    echo "Chromium is missing: installing Debian's chromium package for the browser tests" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; }; then
        # Not fatal here: under CI=true the browser tests then fail (not skip), elsewhere they skip.
        echo "could not install chromium; the browser tests will not run" >&2
    fi
fi
