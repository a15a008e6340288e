# The counted limits: LIMIT_MESH_CHIPS (2^20 chips along one mesh axis),
# LIMIT_SWEEP_POINTS (10,000,000 values of one sweep), LIMIT_REPEAT (1e9 runs of one
# repeat). Each just inside works; just over and far over fail with a message.
. "$(dirname "$0")/lib.shinc"

for n in 1048576 1048577 1e300; do
    echo "mesh X = $n" > mesh.roof
    limit "mesh X = $n" mesh.roof
    echo "bf16[B, D] *_D bf16[D, F] on v5e shard D over $n" > shard.roof
    limit "shard D over $n" shard.roof
done
for n in 10000000 10000001 1e300; do
    printf 'let D = 4096, F = 4096\nsweep B in 1 .. %s plot "chart.svg" {\n    q = bf16[B,D] *_D int8[D,F] on v5e\n}\n' $n > sweep.roof
    limit "sweep of 1 .. $n" sweep.roof
done
printf 'sweep B in 1 .. 1e300 log 10000001 { q = bf16[B,8] *_D int8[8,8] on v5e }\n' > log.roof
limit 'log sweep of 10000001 points' log.roof
for n in 1e9 1000000001 1e300; do
    printf 'use v5e\nrepeat %s { x = bf16[8, 8] *_D bf16[8, 8] }\n' $n > repeat.roof
    limit "repeat $n" repeat.roof
done
