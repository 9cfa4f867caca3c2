# Sourced by the session probe scripts on the device: $OUT (out), a time
# limit of LIMIT_S seconds (default $1) with left() the seconds that
# remain, the runtime built into /tmp/brt ($L), and the prepared
# directories carried as .device/pack/*.tgz unpacked under /tmp/t.
out=${OUT:-/tmp/out}; mkdir -p "$out"
limit=${LIMIT_S:-$1}
t0=$(date +%s)
left() { echo $(( limit - ($(date +%s) - t0) )); }
bash bench/device/build_runtime.sh /tmp/brt > "$out/build-runtime.txt" 2>&1 || { tail -20 "$out/build-runtime.txt"; exit 2; }
L=/tmp/brt/libattn_runtime.so
export PYTHONUNBUFFERED=1
mkdir -p /tmp/t
for f in .device/pack/*.tgz; do tar xzf "$f" -C /tmp/t; done
