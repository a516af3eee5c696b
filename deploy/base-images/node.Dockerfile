# node:24-bookworm-slim made locally (see make-base-images.sh): the official Node 24 build and
# npm 11 from the npm registry on debian:bookworm-slim, with the "node" user (uid 1000).
FROM debian:bookworm-slim
COPY node.tgz npm.tgz /tmp/
COPY npmrc /usr/local/etc/npmrc
COPY npm-ca.crt /usr/local/etc/npm-ca.crt
RUN set -eu; \
    tar -xzf /tmp/node.tgz -C /usr/local --strip-components=1 \
      --exclude=package/README.md --exclude=package/CHANGELOG.md --exclude=package/LICENSE --exclude=package/package.json; \
    mkdir -p /usr/local/lib/node_modules/npm; \
    tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1; \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; \
    ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx; \
    rm /tmp/node.tgz /tmp/npm.tgz; \
    groupadd --gid 1000 node; \
    useradd --uid 1000 --gid node --shell /bin/bash --create-home node; \
    node --version; npm --version
ENV NODE_EXTRA_CA_CERTS=/usr/local/etc/npm-ca.crt
CMD ["node"]
