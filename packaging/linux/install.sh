#!/usr/bin/env bash
# Install the packaged app for the current user (or under PREFIX), with its menu entry, icons and
# file associations (.xlsx, .xls, .csv, .json: "Open with evaleditor").
#
#   bash packaging/build.sh                 # first, once: builds dist/evaleditor/
#   bash packaging/linux/install.sh         # ~/.local/opt/evaleditor, ~/.local/bin/evaleditor, ~/.local/share/...
#   PREFIX=/usr/local sudo -E bash packaging/linux/install.sh      # for every user
#   bash packaging/linux/install.sh --uninstall
#
# The app folder is copied to $PREFIX/opt/evaleditor and linked as $PREFIX/bin/evaleditor; the
# .desktop file goes to $PREFIX/share/applications, the icons to the hicolor theme, the AppStream
# metainfo to $PREFIX/share/metainfo. Each `evaleditor FILE` (a double-click too) opens its own window.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PREFIX="${PREFIX:-$HOME/.local}"
APP_SRC="${APP_SRC:-$ROOT/dist/evaleditor}"
APP_DIR="$PREFIX/opt/evaleditor"
BIN="$PREFIX/bin/evaleditor"
SHARE="$PREFIX/share"
DESKTOP="$SHARE/applications/evaleditor.desktop"
METAINFO="$SHARE/metainfo/io.github.evaleditor.metainfo.xml"
SIZES="16 24 32 48 64 128 256 512"

refresh() {
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$SHARE/applications" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t -f "$SHARE/icons/hicolor" || true
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$APP_DIR"
    rm -f "$DESKTOP" "$METAINFO" "$SHARE/icons/hicolor/scalable/apps/evaleditor.svg"
    [ -L "$BIN" ] && rm -f "$BIN"
    for size in $SIZES; do rm -f "$SHARE/icons/hicolor/${size}x${size}/apps/evaleditor.png"; done
    refresh
    if ! ls "$SHARE/applications/"*.desktop >/dev/null 2>&1; then  # only the cache our entry made is left
        rm -f "$SHARE/applications/mimeinfo.cache"
    fi
    for dir in "$SHARE"/icons/hicolor/*/apps "$SHARE"/icons/hicolor/* "$SHARE/icons/hicolor" "$SHARE/icons" \
               "$SHARE/applications" "$SHARE/metainfo" "$SHARE" "$PREFIX/opt" "$PREFIX/bin"; do
        [ -d "$dir" ] && rmdir "$dir" 2>/dev/null || true  # folders the install made, when nothing else is in them
    done
    echo "install.sh: removed evaleditor from $PREFIX"
    exit 0
fi

if [ ! -x "$APP_SRC/evaleditor" ]; then
    echo "install.sh: $APP_SRC/evaleditor not found: build it first with  bash packaging/build.sh" >&2
    exit 1
fi

mkdir -p "$PREFIX/opt" "$PREFIX/bin" "$SHARE/applications" "$SHARE/metainfo" "$SHARE/icons/hicolor/scalable/apps"
rm -rf "$APP_DIR.new"
cp -a "$APP_SRC" "$APP_DIR.new"
rm -rf "$APP_DIR"
mv "$APP_DIR.new" "$APP_DIR"
ln -sfn "$APP_DIR/evaleditor" "$BIN"

# Exec= names the installed binary by its full path, so the menu entry works without $PREFIX/bin on PATH
sed -e "s|^Exec=evaleditor |Exec=\"$APP_DIR/evaleditor\" |" -e "s|^TryExec=evaleditor$|TryExec=$APP_DIR/evaleditor|" \
    "$HERE/evaleditor.desktop" > "$DESKTOP"
chmod 644 "$DESKTOP"
install -m 644 "$HERE/io.github.evaleditor.metainfo.xml" "$METAINFO"

ICONS="$ROOT/resources/icons"
for size in $SIZES; do
    mkdir -p "$SHARE/icons/hicolor/${size}x${size}/apps"
    install -m 644 "$ICONS/png/evaleditor-$size.png" "$SHARE/icons/hicolor/${size}x${size}/apps/evaleditor.png"
done
install -m 644 "$ICONS/evaleditor.svg" "$SHARE/icons/hicolor/scalable/apps/evaleditor.svg"
refresh

echo "install.sh: installed $APP_DIR"
echo "  menu entry $DESKTOP (opens .xlsx, .xls, .csv, .json)"
case ":$PATH:" in
    *":$PREFIX/bin:"*) echo "  command    evaleditor" ;;
    *) echo "  command    $BIN  ($PREFIX/bin is not on PATH)" ;;
esac
