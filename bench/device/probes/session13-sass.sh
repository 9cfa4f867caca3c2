set -u
mkdir -p /tmp/t && tar xzf .device/pack/sass.tgz -C /tmp/t
for k in a128 a112 o128; do
  nvdisasm -plr -c /tmp/t/sass/$k.cubin > /tmp/$k.plr.txt 2>&1; echo "$k: exit $? $(wc -l < /tmp/$k.plr.txt) lines"
  cuobjdump -sass /tmp/t/sass/$k.cubin > /tmp/$k.sass.txt 2>&1
done
tar czf $OUT/sass.tgz -C /tmp a128.plr.txt a112.plr.txt o128.plr.txt a128.sass.txt a112.sass.txt o128.sass.txt
ls -la $OUT
