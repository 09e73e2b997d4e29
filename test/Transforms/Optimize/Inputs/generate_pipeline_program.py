import sys

# Writes a pipeline program of P meshes, V stages per mesh and M microbatches
# (microbatch by microbatch, as the import leaves it): forward fragments of
# stages 0..S-1 then backward fragments of S-1..0, with transfers between
# meshes. LAYOUT is `looping` (stage s on mesh s mod P) or `v` (V-shape:
# stage s on mesh s, then back); SPLIT=1 splits each backward into the
# transferred part and its weight gradient (split_keep/drop_transferred).
#
#   /usr/bin/python3 generate_pipeline_program.py P V M LAYOUT SPLIT > FILE

p,v,m=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3]); layout=sys.argv[4]; split=sys.argv[5]=='1'
S=p*v
def mesh_of(s):
    if layout=='looping': return s%p
    return s if s<p else 2*p-1-s
meshes=[f"m{i}" for i in range(p)]
out=[]
out.append('!t = tensor<4xf32>')
for mname in meshes: out.append(f'!{mname} = !mpmd.mesh_tensor<"{mname}", !t>')
topo=', '.join(f'<"{mn}": <["x"=2]>>' for mn in meshes)
out.append(f'#topology = #mpmd.topology<{topo}>')
args=', '.join(f'%arg{i}: !{meshes[mesh_of(0)]}' for i in range(m))
out.append(f'func.func @main({args}) attributes {{topology = #topology}} {{')
cnt=[0]
def new(): cnt[0]+=1; return f'%v{cnt[0]}'
def move(val, src, dst):
    if src==dst: return val
    r=new(); out.append(f'  {r} = mpmd.transfer {val} : (!{meshes[src]}) -> !{meshes[dst]}'); return r
for mb in range(m):
    x=f'%arg{mb}'; cur=mesh_of(0); acts=[]
    for s in range(S):
        ms=mesh_of(s); x=move(x,cur,ms); cur=ms
        r=new()
        out.append(f'  {r} = mpmd.fragment<mesh="{meshes[ms]}", origin=["layer{s}"], stage={s}> ({x}) {{call_counter = {mb} : ui32}} (%a: !t) {{')
        out.append('    %y = stablehlo.add %a, %a : !t'); out.append('    mpmd.return %y : !t')
        out.append(f'  }} : (!{meshes[ms]}) -> !{meshes[ms]}')
        acts.append(r); x=r
    g=x
    for s in reversed(range(S)):
        ms=mesh_of(s); g=move(g,cur,ms); cur=ms
        r=new(); st=f'stage={s}'
        if split:
            out.append(f'  {r}:2 = mpmd.fragment<mesh="{meshes[ms]}", origin=["layer{s}"(1)], {st}> ({g}, {acts[s]}) {{call_counter = {mb} : ui32, split_keep_transferred}} (%a: !t, %b: !t) {{')
            out.append('    %y = stablehlo.multiply %a, %b : !t'); out.append('    mpmd.return %y, %b : !t, !t')
            out.append(f'  }} : (!{meshes[ms]}, !{meshes[ms]}) -> (!{meshes[ms]}, !{meshes[ms]})')
            w=new()
            out.append(f'  {w} = mpmd.fragment<mesh="{meshes[ms]}", origin=["layer{s}"(1)], {st}> ({r}#1) {{call_counter = {mb} : ui32, split_drop_transferred}} (%a: !t) {{')
            out.append('    %y = stablehlo.negate %a : !t'); out.append('    mpmd.return %y : !t')
            out.append(f'  }} : (!{meshes[ms]}) -> !{meshes[ms]}')
            g=f'{r}#0'
        else:
            out.append(f'  {r} = mpmd.fragment<mesh="{meshes[ms]}", origin=["layer{s}"(1)], {st}> ({g}, {acts[s]}) {{call_counter = {mb} : ui32}} (%a: !t, %b: !t) {{')
            out.append('    %y = stablehlo.multiply %a, %b : !t'); out.append('    mpmd.return %y : !t')
            out.append(f'  }} : (!{meshes[ms]}, !{meshes[ms]}) -> !{meshes[ms]}')
            g=r
out.append('  return')
out.append('}')
print('\n'.join(out))
