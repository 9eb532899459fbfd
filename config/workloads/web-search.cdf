# Web search workload: DCTCP, Alizadeh et al., SIGCOMM'10, Fig. 4 (flow sizes of the
# production search cluster's background traffic), as used by Pyrrha §6 (its ref [11]).
#
# Points taken from the Pyrrha authors' ns-3 code, NASA-NJU/Pyrrha-NS3,
# src/point-to-point/model/flow-generator.cc, FlowGenerator::GetWebSearchStream (commit
# 67b846fd1115a34fcd1f5c39af9367cc1c3fadf1). There the sizes are in packets and are
# multiplied by PACKET_PAYLOAD_SIZE = 1460 bytes (mix_withcc/config-*.ini); the same packet
# points are pFabric's CDF_search.tcl. Here they are converted to bytes (packets × 1460).
# The code's "added for priority solving" points (1000, 2333 and 5000 packets) lie on the
# segments between their neighbours and are left out: the distribution is the same.
# HPCC (alibaba-edu/High-Precision-Congestion-Control, traffic_gen/WebSearch_distribution.txt)
# ships the same curve with sizes rounded to 10 KB … 30 MB.
#
# Mean (piecewise-linear, first point an atom): 1 665 830.8 bytes (≈ 1141 packets; Pyrrha's
# code states 1138).
#
# size_bytes cumulative_probability
8760 0.15
18980 0.2
27740 0.3
48180 0.4
77380 0.53
194180 0.6
973820 0.7
1946180 0.8
4866180 0.9
9733820 0.97
29200000 1
