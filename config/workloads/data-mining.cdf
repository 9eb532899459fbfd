# Data mining workload: VL2, Greenberg et al., SIGCOMM'09, Fig. 2 (flow sizes in a data-mining
# cluster), in the form pFabric (CDF_vl2.tcl) and the ns-3 RDMA simulators use it.
#
# Points taken from NASA-NJU/Pyrrha-NS3, src/point-to-point/model/flow-generator.cc,
# FlowGenerator::GetDataMiningStream (commit 67b846fd1115a34fcd1f5c39af9367cc1c3fadf1): sizes
# in packets × PACKET_PAYLOAD_SIZE = 1460 bytes, converted to bytes here.
#
# Mean (piecewise-linear, first point an atom): 7 470 236 bytes (5116.6 packets; the code
# states 5116).
#
# size_bytes cumulative_probability
1460 0.5
2920 0.6
4380 0.7
10220 0.8
389820 0.9
3076220 0.95
97333820 0.99
973333820 1
