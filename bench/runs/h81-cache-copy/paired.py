# Both rules against both runs: each run prints its rule's prediction and its measurement per step.
# Usage: /usr/bin/python3 paired.py RUN_A.txt RUN_B.txt (bench:decode raw files, the same profile).
import sys,re
def load(f):
    d={}
    for l in open(f):
        if re.match(r'^\| [A-I] \|',l):
            c=[x.strip() for x in l.split('|')]
            d[(c[1],c[2],c[3],c[4])]=(float(c[9]),float(c[12]))
    return d
a=load(sys.argv[1]); b=load(sys.argv[2])
for flow in ['concat','read-once']:
  for sets in ['ABCDEF','G','H','I']:
    res={}
    for (s,st,fl,t),(ma,pa) in a.items():
        if fl!=flow or s not in sets: continue
        mb,pb=b[(s,st,fl,t)]
        for name,p,m in [('old|a',pa,ma),('old|b',pa,mb),('new|a',pb,ma),('new|b',pb,mb)]:
            res.setdefault(name,[]).append(abs(p/m-1)<=0.15)
    print(flow,sets,{k:f"{sum(v)}/{len(v)}" for k,v in res.items()})
import statistics as st
for name,(pi,mi) in {'old|a':(0,0),'old|b':(0,1),'new|a':(1,0),'new|b':(1,1)}.items():
    errs=[]
    for k,(ma,pa) in a.items():
        if k[2]!='concat': continue
        mb,pb=b[k]
        p=[pa,pb][pi]; m=[ma,mb][mi]
        errs.append(p/m-1)
    print(name,'concat median signed %.1f%% median abs %.1f%%'%(100*st.median(errs),100*st.median(map(abs,errs))))
