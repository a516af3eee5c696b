# Puts Node 24 LTS first on PATH for the commands that follow. Source it, don't run it:
#   . scripts/node24.sh && npm install && npm test
# A machine whose node is older gets Node 24 from the npm registry itself: the
# node-linux-<arch> package is the official build (with its headers, for node-gyp). The
# native modules need no compiler and no download from GitHub: better-sqlite3 (13, Node-API)
# and argon2 ship their prebuilt binaries inside their npm packages (package.json's
# allowScripts denies better-sqlite3's implicit `node-gyp rebuild`, which has nothing to build).

node_wanted=24
if ! node -e "process.exit(Number(process.versions.node.split('.')[0]) >= ${node_wanted} ? 0 : 1)" 2>/dev/null; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) node_arch="$(uname -m)" ;;
  esac
  node_home="${NODE24_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/callkeeper-node${node_wanted}}"
  node_pkg="$node_home/node_modules/node-linux-$node_arch"
  if [ ! -x "$node_pkg/bin/node" ]; then
    echo "node $(node -v 2>/dev/null || echo 'not found') is older than ${node_wanted}: installing node-linux-$node_arch@${node_wanted} from the npm registry into $node_home"
    npm install --prefix "$node_home" --no-save --no-audit --no-fund --loglevel=error "node-linux-$node_arch@${node_wanted}" || return 1
  fi
  export PATH="$node_pkg/bin:$PATH"
  # Anything node-gyp compiles is built against these headers, whatever an .npmrc's nodedir says.
  export npm_config_nodedir="$node_pkg"
  unset node_arch node_home node_pkg
fi
unset node_wanted
echo "Using node $(node -v)"
