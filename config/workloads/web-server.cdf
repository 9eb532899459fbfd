# Web server workload: Facebook, Roy et al., "Inside the Social Network's (Datacenter)
# Network", SIGCOMM'15, Fig. 6 (flow sizes, Web servers, intra-cluster), as used by Pyrrha §6
# (its ref [80]; FLOW_CDF 13 in its code).
#
# Points taken from the Homa simulator, PlatformLab/HomaSimulation,
# RpcTransportDesign/OMNeT++Simulation/homatransport/sizeDistributions/
# Facebook_WebServerDist_IntraCluster.txt (commit 23b5164f3861e1da43d26ac2aa63e6765dca5dbd),
# the file Pyrrha's code reads as distribution/Facebook_WebServerDist_IntraCluster.txt
# (NASA-NJU/Pyrrha-NS3 scratch/third.cc, getCdfFromFile). Sizes are in bytes; the file's
# first line (its mean, 68936.79) is dropped.
#
# Mean (piecewise-linear, first point an atom): ≈ 62 483 bytes (Homa's file states 68 937).
# Homa's figure is the mean of a step CDF (each segment's mass at its upper size); Pyrrha's
# code takes it for λ. Ours is the mean of the linear interpolation we sample from, so the
# load a caller computes with FlowSizeCdf::mean_bytes() is the load it gets.
#
# size_bytes cumulative_probability
84 0.061
153 0.126
301 0.215
500 0.226
639 0.2407
800 0.2537
900 0.2667
1000 0.2926
1085 0.3130
1357 0.3352
1534 0.3500
1664 0.3722
1843 0.3963
2000 0.4093
3000 0.4796
4000 0.5259
5000 0.5630
6000 0.5889
7000 0.6111
8000 0.6260
9000 0.6407
10000 0.6519
14140 0.6852
20000 0.7148
24512 0.7315
30000 0.7463
34660 0.7574
40000 0.7667
45171 0.7759
50000 0.7815
60000 0.7926
70000 0.8
80000 0.8074
100000 0.8148
144310 0.8241
200000 0.8574
260573 0.8944
300000 0.9222
353730 0.9556
400000 0.9741
442606 0.9833
565213 0.9907
778003 0.9963
1000000 1
