# Enterprise workload: the "empirically observed enterprise traffic patterns" of GFC §6.2.3,
# Fig. 15, whose citation is [57] = Vanini et al., "Let It Flow: Resilient Asymmetric Load
# Balancing with Flowlet Switching", NSDI'17 (its enterprise workload, from a large
# enterprise's datacenter, the one CONGA (SIGCOMM'14) also uses).
#
# Neither GFC nor Let It Flow publishes the points: GFC Fig. 15 is an image and the LetFlow
# simulation code is not public. The points below are the ENTERPRISE_CDF file shipped with
# NUMFabric's ns-3 code (Nagaraj et al., SIGCOMM'16; Alizadeh, an author of Let It Flow and
# CONGA, is an author), taken from the public copy jiaqing-phd/numfabric, file ENTERPRISE_CDF
# (commit c0c5326de47fec0f7982ab4d80b70b15f887c4f8), unchanged (sizes in bytes, one point per
# percentile, finer in the tail). It is the closest public source found; it could NOT be
# checked point by point against GFC Fig. 15 or Let It Flow's figure. Replace it if the GFC
# authors' own file turns up.
#
# Mean (piecewise-linear, first point an atom): ≈ 157 357 bytes. Heavy-tailed: 1 % of flows are
# above 1.4 MB, the largest 1.77 GB.
#
# size_bytes cumulative_probability
52 0.01
52 0.02
52 0.03
52 0.04
52 0.05
52 0.06
71 0.07
80 0.08
93 0.09
104 0.1
104 0.11
117 0.12
128 0.13
146 0.14
156 0.15
160 0.16
168 0.17
176 0.18
184 0.19
207 0.2
216 0.21
220 0.22
228 0.23
240 0.24
260 0.25
280 0.26
292 0.27
312 0.28
332 0.29
352 0.3
368 0.31
389 0.32
420 0.33
448 0.34
476 0.35
505 0.36
536 0.37
570 0.38
604 0.39
636 0.4
657 0.41
692 0.42
708 0.43
736 0.44
770 0.45
820 0.46
870 0.47
930 0.48
990 0.49
1052 0.5
1121 0.51
1200 0.52
1281 0.53
1341 0.54
1393 0.55
1472 0.56
1500 0.57
1540 0.58
1617 0.59
1700 0.6
1784 0.61
1904 0.62
2052 0.63
2160 0.64
2304 0.65
2486 0.66
2688 0.67
2921 0.68
3000 0.69
3163 0.7
3466 0.71
3740 0.72
4124 0.73
4500 0.74
4580 0.75
4952 0.76
5363 0.77
5889 0.78
6088 0.79
6646 0.8
7308 0.81
7800 0.82
8510 0.83
9188 0.84
10344 0.85
11561 0.86
13232 0.87
15370 0.88
18100 0.89
21668 0.9
26285 0.91
32536 0.92
41768 0.93
55796 0.94
76064 0.95
112036 0.96
189792 0.97
396120 0.98
1400260 0.99
1648840 0.991
1983192 0.992
2460724 0.993
3114668 0.994
4094912 0.995
5715047 0.996
8608848 0.997
14986480 0.998
31234416 0.999
34309484 0.9991
38113744 0.9992
43101196 0.9993
48564256 0.9994
55172740 0.9995
64149296 0.9996
76720988 0.9997
98405552 0.9998
144144096 0.9999
153800296 0.99991
163350688 0.99992
174063680 0.99993
184086600 0.99994
199310416 0.99995
224086072 0.99996
249070260 0.99997
308776352 0.99998
413478960 0.99999
425923560 0.999991
439754048 0.999992
440618308 0.999993
449947224 0.999994
471397620 0.999995
493632404 0.999996
561765744 0.999997
705574076 0.999998
771881716 0.999999
1773379248 1
