package bench

// DataMissing is dataMissing for the external test package (bench_test).
var DataMissing = dataMissing
