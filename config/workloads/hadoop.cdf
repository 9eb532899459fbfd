# Hadoop workload: Facebook, Roy et al., "Inside the Social Network's (Datacenter) Network",
# SIGCOMM'15, Fig. 6 (flow sizes, Hadoop, all traffic); Homa's workload W4.
#
# Points taken from the Homa simulator, PlatformLab/HomaSimulation,
# RpcTransportDesign/OMNeT++Simulation/homatransport/sizeDistributions/
# Facebook_HadoopDist_All.txt (commit 23b5164f3861e1da43d26ac2aa63e6765dca5dbd), the file
# Pyrrha's and Floodgate's code read for FLOW_CDF 7. Sizes are in bytes; the file's first line
# (its mean, 194330.9) is dropped.
# HPCC (alibaba-edu/High-Precision-Congestion-Control, traffic_gen/FbHdp_distribution.txt)
# ships a coarser reading of the same figure (20 points, 0 … 10 MB); this file keeps Homa's
# finer one.
#
# Mean (piecewise-linear, first point an atom): ≈ 134 854 bytes (Homa's file states 194 331).
# Homa's figure is the mean of a step CDF (each segment's mass at its upper size); Pyrrha's
# code takes it for λ. Ours is the mean of the linear interpolation we sample from, so the
# load a caller computes with FlowSizeCdf::mean_bytes() is the load it gets.
#
# size_bytes cumulative_probability
92 0.0074
217 0.0149
271 0.0409
300 0.0520
326 0.1375
376 0.2026
425 0.2230
480 0.2639
600 0.4591
679 0.5167
737 0.5520
800 0.5762
885 0.5912
1042 0.6097
1277 0.6282
1413 0.6394
1534 0.6468
1664 0.6673
2214 0.6747
3396 0.6840
5210 0.6933
7830 0.7082
31946 0.7212
36844 0.7305
39973 0.7398
44260 0.7584
47050 0.7788
51046 0.8160
62583 0.8234
70722 0.8327
75180 0.8420
81565 0.8717
102058 0.8885
115331 0.8978
133013 0.9070
156563 0.9164
184284 0.9257
212546 0.9349
240177 0.9442
288520 0.9535
470507 0.9628
736642 0.9684
940700 0.9721
1769244 0.9814
2169118 0.9870
10000000 1
