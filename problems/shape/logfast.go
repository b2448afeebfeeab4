package shape

import "math"

// Log's fast path. logSlow (libm.go) evaluates log x with some thirty double-double
// operations (a division and a 24-term series), about 0.6 µs a call. logApprox evaluates it
// with a 128-entry table and a short polynomial to within 2^-65.8 relative, and Log returns its
// rounded result when a rounding test (logRounds, Ziv's test) proves that result equal to
// logSlow's; otherwise (about one argument in 256, and the special arguments) Log calls logSlow.
//
// Reduction. For a positive normal x ≠ 1, x = 2^k·z exactly with z in [1-2^-8, 2-2^-7);
// the bits select interval i of z: i = 0 is [1-2^-8, 1), i >= 1 is [1+(i-1)/128, 1+i/128).
// logTable[i] holds c (1 for i = 0, 1; otherwise the multiple of 2^-8 that minimises
// max |z·c - 1| over the interval) and T = -log c split as hi + lo (hi = RN(T), lo = RN(T-hi)).
// Then
//
//	log x = k·ln2 + T + log1p(r),  r = z·c - 1,
//
// and r = fma(z, c, -1) is exact: for i >= 1, z is a multiple of 2^-52 and c of 2^-8, so z·c-1
// is a multiple of 2^-60, and |r| < 2^-7 makes it fit in 53 bits; for i = 0, c = 1 and r = z-1
// is exact (Sterbenz). TestLogTable checks |r| <= R = 0.005585 for i >= 2, |r| < 2^-7 for i = 1
// and |r| <= 2^-8 for i = 0. With ln2 = ln2Hi + ln2Lo (ln2Hi has 42 significant bits, so k·ln2Hi
// is exact for |k| <= 2^11) and r² = p + pl (p = RN(r²), pl by fma),
// log1p(r) = r - p/2 - pl/2 + r³·Q(r) with Q(r) = 1/3 - r/4 + r²/5 - ..., truncated after
// r^7/10 (q). Three twoSums add k·ln2Hi + T.hi + r - p/2 exactly into s3.hi plus their three
// error terms; those, T.lo, k·ln2Lo and -pl/2 make up tail; tail + r·p·q is added to s3.hi by a
// fastTwoSum, exactly (|s3.hi| exceeds 2^14 times the other), giving hi + lo.
//
// Error of hi + lo against L = log x (u = 2^-53; products are rounded separately, as the
// explicit conversions require, though fusing them would only reduce the errors):
//   - ln2Lo and T.lo are within half an ulp: |k|·2^-97 and 2^-107; k·ln2Lo rounds by |k|·2^-97;
//   - the five additions of small terms and the one adding r·p·q err by at most 6u times the
//     sum of |terms|, at most 3u(|k|·ln2 + 0.7) + 2^-54 + |k|·2^-44 + 2^-68, plus u·|r·p·q|:
//     below 2^-101 + |k|·2^-94 + 0.336u·|r|³;
//   - r·p·q: the rounded coefficients and Horner steps give q within 2.05u relative (|r| < 2^-7),
//     p, r·p and the product add u each, so 5.1u relative, with |q| <= 0.3353: 1.71u·|r|³;
//   - the truncated series: below |r|^11/11·1.01.
//
// Away from 1 (i >= 2 or k ≠ 0) |r| <= R, so the error is below 2^-74.4 + |k|·2^-93, while
// |L| >= 2^-8 (k = 0 gives L >= log(1+2^-7); k = -1 gives L < log(1-2^-8); k = 1 gives
// L >= log(2-2^-7)) and |L| >= 0.69·(|k|-1) for |k| >= 2: relative error below 2^-66.4.
// Near 1 (k = 0, i = 0 or 1: k·ln2Hi, T and the twoSums' first two error terms are 0) |r| < 2^-7
// and the error is below (1.71·2^-67 + 0.336·2^-67 + 2^-70/11 + 2^-105)·|r| < 2^-65.9·|r|,
// with |L| >= |r|·(1-2^-8): relative error below 2^-65.8.
// logSlow returns RN(V) for the double-double value V = logDD(x).hi + logDD(x).lo (its last
// step is a fastTwoSum). V is within 2^-90 relative of L: the series is truncated below 2^-125,
// and each of the double-double operations errs by a few 2^-106 relative to magnitudes at most
// twice |L| (e·ln2 and log m, |log m| <= ln2/2, cancel by at most that). TestLogErrorBounds
// measures both errors on random arguments: about 2^-67.2 and 2^-104.
//
// Rounding test. Let hi have exponent E and h = 2^(E-53), half its ulp. If hi is not a power of
// two (else: logSlow), its neighbours are hi ± 2h. |L| < 2^(E+1), so the two errors together
// are below (2^-65.8 + 2^-90)·2^(E+1) < 2^-62·2^(E+1) = h·2^-8. If |lo| < h·(1-2^-8) (the
// product is exact), then |L - hi| and |V - hi| are both below h·2^-8 + h·(1-2^-8) = h, so
// RN(L) = RN(V) = hi: Log returns logSlow's value, the correctly rounded one, for every x.

// logOff is 1-2^-8: x's bits minus logOff give k (the top 12 bits) and i (the next 7).
const logOff = 0x3FEFE00000000000

const (
	ln2Hi = 0x1.62e42fefa38p-01
	ln2Lo = 0x1.ef35793c7673p-45
)

// logQ is the truncated Q(r) = Σ (-1)^n r^n/(n+3), n = 0..7, by Horner.
var logQ = [8]float64{1.0 / 3, -1.0 / 4, 1.0 / 5, -1.0 / 6, 1.0 / 7, -1.0 / 8, 1.0 / 9, -1.0 / 10}

// logTable[i] is {c, hi, lo} with hi + lo = -log c (see above; TestLogTable rebuilds it).
var logTable = [128]struct{ c, hi, lo float64 }{
	{1, 0, 0},
	{1, 0, 0},
	{0x1.fap-01, 0x1.82448a388a2aap-07, 0x1.04b16137f09ap-62},
	{0x1.f6p-01, 0x1.432a925980cc1p-06, -0x1.8cdaf39004192p-60},
	{0x1.f2p-01, 0x1.c63d2ec14aaf2p-06, -0x1.ce030a686bd86p-60},
	{0x1.eep-01, 0x1.252f32f8d183fp-05, -0x1.947f792615916p-59},
	{0x1.eap-01, 0x1.67c94f2d4bb58p-05, 0x1.0413e6505e603p-59},
	{0x1.e8p-01, 0x1.894aa149fb343p-05, 0x1.a8be97660a23dp-60},
	{0x1.e4p-01, 0x1.ccb73cdddb2ccp-05, -0x1.e48fb0500efd4p-59},
	{0x1.ep-01, 0x1.08598b59e3a07p-04, -0x1.dd7009902bf32p-58},
	{0x1.dcp-01, 0x1.2aa04a44717a5p-04, -0x1.d15d38d2fa3f7p-58},
	{0x1.dap-01, 0x1.3bdf5a7d1ee64p-04, 0x1.7a976d3b5b45fp-59},
	{0x1.d6p-01, 0x1.5e95a4d9791cbp-04, 0x1.f38745c5c450ap-58},
	{0x1.d2p-01, 0x1.8197e2f40e3fp-04, 0x1.b9f2dffbeed43p-60},
	{0x1.dp-01, 0x1.9335e5d594989p-04, -0x1.478a85704ccb7p-58},
	{0x1.ccp-01, 0x1.b6ac88dad5b1cp-04, -0x1.0057eed1ca59fp-59},
	{0x1.c8p-01, 0x1.da727638446a2p-04, 0x1.401fa71733019p-58},
	{0x1.c6p-01, 0x1.ec739830a112p-04, -0x1.a2bf991780d3fp-59},
	{0x1.c2p-01, 0x1.08598b59e3a07p-03, -0x1.dd7009902bf32p-57},
	{0x1.cp-01, 0x1.1178e8227e47cp-03, -0x1.0e63a5f01c691p-58},
	{0x1.bcp-01, 0x1.23d712a49c202p-03, -0x1.6e38161051d69p-57},
	{0x1.bap-01, 0x1.2d1610c86813ap-03, -0x1.499a3f25af95fp-58},
	{0x1.b6p-01, 0x1.3fb45a59928ccp-03, -0x1.d87e6a354d056p-57},
	{0x1.b4p-01, 0x1.4913d8333b561p-03, -0x1.0d5604930f135p-58},
	{0x1.bp-01, 0x1.5bf406b543db2p-03, -0x1.1f5b44c0df7e7p-61},
	{0x1.aep-01, 0x1.6574ebe8c133ap-03, -0x1.d34f0f4621bedp-60},
	{0x1.aap-01, 0x1.7898d85444c73p-03, 0x1.ef8f6ebcfb201p-58},
	{0x1.a8p-01, 0x1.823c16551a3c2p-03, -0x1.1232ce70be781p-57},
	{0x1.a6p-01, 0x1.8beafeb38fe8cp-03, 0x1.55aa8b6997a4p-58},
	{0x1.a2p-01, 0x1.9f6c407089664p-03, 0x1.35a19605e67efp-59},
	{0x1.ap-01, 0x1.a93ed3c8ad9e3p-03, 0x1.bcafa9de97203p-57},
	{0x1.9ep-01, 0x1.b31d8575bce3dp-03, -0x1.6353ab386a94dp-57},
	{0x1.9ap-01, 0x1.c6ffbc6f00f71p-03, -0x1.8e58b2c57a4a5p-57},
	{0x1.98p-01, 0x1.d1037f2655e7bp-03, 0x1.60629242471a2p-57},
	{0x1.96p-01, 0x1.db13db0d4894p-03, 0x1.aa11d49f96cb9p-58},
	{0x1.94p-01, 0x1.e530effe71012p-03, 0x1.2276041f43042p-59},
	{0x1.9p-01, 0x1.f991c6cb3b379p-03, 0x1.f665066f980a2p-57},
	{0x1.8ep-01, 0x1.01eae5626c691p-02, -0x1.18290bd2932e2p-59},
	{0x1.8cp-01, 0x1.07138604d5862p-02, 0x1.cdb16ed4e9138p-56},
	{0x1.8ap-01, 0x1.0c42d676162e3p-02, 0x1.162c79d5d11eep-58},
	{0x1.88p-01, 0x1.1178e8227e47cp-02, -0x1.0e63a5f01c691p-57},
	{0x1.84p-01, 0x1.1bf99635a6b95p-02, -0x1.12aeb84249223p-57},
	{0x1.82p-01, 0x1.214456d0eb8d4p-02, 0x1.f7ae91aeba60ap-57},
	{0x1.8p-01, 0x1.269621134db92p-02, 0x1.e0efadd9db02bp-56},
	{0x1.7ep-01, 0x1.2bef07cdc9354p-02, -0x1.82dad7fd86088p-56},
	{0x1.7cp-01, 0x1.314f1e1d35ce4p-02, -0x1.3d69909e5c3dcp-56},
	{0x1.7ap-01, 0x1.36b6776be1117p-02, -0x1.324f0e883858ep-58},
	{0x1.78p-01, 0x1.3c25277333184p-02, -0x1.2ad27e50a8ec6p-56},
	{0x1.76p-01, 0x1.419b423d5e8c7p-02, 0x1.0dbb243827392p-57},
	{0x1.74p-01, 0x1.4718dc271c41bp-02, 0x1.8fb4c14c56eefp-60},
	{0x1.72p-01, 0x1.4c9e09e172c3cp-02, -0x1.123615b147a5dp-58},
	{0x1.7p-01, 0x1.522ae0738a3d8p-02, -0x1.8f7e9b38a6979p-57},
	{0x1.6ep-01, 0x1.57bf753c8d1fbp-02, -0x1.0908d15f88b63p-57},
	{0x1.6cp-01, 0x1.5d5bddf595f3p-02, -0x1.6541148cbb8a2p-56},
	{0x1.6ap-01, 0x1.630030b3aac49p-02, 0x1.dc18ce51fff99p-57},
	{0x1.68p-01, 0x1.68ac83e9c6a14p-02, 0x1.a64eadd740178p-58},
	{0x1.66p-01, 0x1.6e60ee6af1972p-02, 0x1.657c222d868cdp-58},
	{0x1.64p-01, 0x1.741d876c67bb1p-02, 0x1.84a4ee3059583p-56},
	{0x1.62p-01, 0x1.79e26687cfb3ep-02, -0x1.c168817443f22p-56},
	{0x1.6p-01, 0x1.7fafa3bd8151cp-02, -0x1.219024acd3b77p-58},
	{0x1.5ep-01, 0x1.85855776dcbfbp-02, -0x1.486666443b153p-56},
	{0x1.5cp-01, 0x1.8b639a88b2df5p-02, -0x1.70f2f38238303p-56},
	{0x1.5ap-01, 0x1.914a8635bf68ap-02, -0x1.ad4bb98c1f2c5p-56},
	{0x1.58p-01, 0x1.973a3431356aep-02, -0x1.89d2816cf838fp-57},
	{0x1.56p-01, 0x1.9d32bea15ed3bp-02, 0x1.87bcbcfd3e187p-59},
	{0x1.54p-01, 0x1.a33440224fa79p-02, -0x1.ba8062860ae23p-57},
	{0x1.52p-01, 0x1.a93ed3c8ad9e3p-02, 0x1.bcafa9de97203p-56},
	{0x1.5p-01, 0x1.af5295248cddp-02, 0x1.9d56c45dd3e86p-56},
	{0x1.5p-01, 0x1.af5295248cddp-02, 0x1.9d56c45dd3e86p-56},
	{0x1.4ep-01, 0x1.b56fa04462909p-02, 0x1.494b610665378p-56},
	{0x1.4cp-01, 0x1.bb9611b80e2fbp-02, 0x1.6fd02999b21e1p-59},
	{0x1.4ap-01, 0x1.c1c60693fa39ep-02, -0x1.bfc00b8f3feaap-56},
	{0x1.48p-01, 0x1.c7ff9c74554c9p-02, 0x1.223eadb651b4ap-57},
	{0x1.46p-01, 0x1.ce42f18064743p-02, 0x1.0798270b29f39p-56},
	{0x1.46p-01, 0x1.ce42f18064743p-02, 0x1.0798270b29f39p-56},
	{0x1.44p-01, 0x1.d490246defa6bp-02, 0x1.d7f4d3b3d406bp-56},
	{0x1.42p-01, 0x1.dae75484c9616p-02, -0x1.0b5837185a661p-56},
	{0x1.4p-01, 0x1.e148a1a2726cep-02, -0x1.ac81cc8a4dfb8p-56},
	{0x1.3ep-01, 0x1.e7b42c3ddad73p-02, 0x1.57d646a17bc6ap-56},
	{0x1.3ep-01, 0x1.e7b42c3ddad73p-02, 0x1.57d646a17bc6ap-56},
	{0x1.3cp-01, 0x1.ee2a156b413e5p-02, -0x1.74b71fb5e57e3p-62},
	{0x1.3ap-01, 0x1.f4aa7ee03192dp-02, -0x1.0d487f5aba5e5p-57},
	{0x1.38p-01, 0x1.fb358af7a4884p-02, 0x1.7e8f05924d259p-57},
	{0x1.38p-01, 0x1.fb358af7a4884p-02, 0x1.7e8f05924d259p-57},
	{0x1.36p-01, 0x1.00e5ae5b207abp-01, 0x1.1713a36138e19p-57},
	{0x1.34p-01, 0x1.04360be7603adp-01, -0x1.17f9e54e78104p-57},
	{0x1.32p-01, 0x1.078bf0533c568p-01, 0x1.2241edf5fd1f7p-57},
	{0x1.32p-01, 0x1.078bf0533c568p-01, 0x1.2241edf5fd1f7p-57},
	{0x1.3p-01, 0x1.0ae76e2d054fap-01, 0x1.0d710fcfc4e0dp-55},
	{0x1.2ep-01, 0x1.0e4898611cce1p-01, 0x1.3300f002e836ep-55},
	{0x1.2ep-01, 0x1.0e4898611cce1p-01, 0x1.3300f002e836ep-55},
	{0x1.2cp-01, 0x1.11af823c75aa8p-01, -0x1.91eee7772c7c2p-55},
	{0x1.2ap-01, 0x1.151c3f6f29612p-01, 0x1.342eb628dba17p-56},
	{0x1.2ap-01, 0x1.151c3f6f29612p-01, 0x1.342eb628dba17p-56},
	{0x1.28p-01, 0x1.188ee40f23ca6p-01, 0x1.89df1568ca0bp-55},
	{0x1.26p-01, 0x1.1c07849ae6007p-01, 0x1.59bddae1ccce2p-56},
	{0x1.26p-01, 0x1.1c07849ae6007p-01, 0x1.59bddae1ccce2p-56},
	{0x1.24p-01, 0x1.1f8635fc61659p-01, -0x1.2164ff40e9817p-56},
	{0x1.22p-01, 0x1.230b0d8bebc98p-01, -0x1.fcc8dbccc25cbp-57},
	{0x1.22p-01, 0x1.230b0d8bebc98p-01, -0x1.fcc8dbccc25cbp-57},
	{0x1.2p-01, 0x1.269621134db92p-01, 0x1.e0efadd9db02bp-55},
	{0x1.1ep-01, 0x1.2a2786d0ec107p-01, -0x1.6a0c343be95dcp-56},
	{0x1.1ep-01, 0x1.2a2786d0ec107p-01, -0x1.6a0c343be95dcp-56},
	{0x1.1cp-01, 0x1.2dbf557b0df43p-01, -0x1.b941ee770436bp-56},
	{0x1.1cp-01, 0x1.2dbf557b0df43p-01, -0x1.b941ee770436bp-56},
	{0x1.1ap-01, 0x1.315da4434068bp-01, 0x1.6c3a5f12642c9p-57},
	{0x1.18p-01, 0x1.35028ad9d8c86p-01, -0x1.f01ab6065515cp-56},
	{0x1.18p-01, 0x1.35028ad9d8c86p-01, -0x1.f01ab6065515cp-56},
	{0x1.16p-01, 0x1.38ae2171976e7p-01, 0x1.21512aa596ea3p-55},
	{0x1.16p-01, 0x1.38ae2171976e7p-01, 0x1.21512aa596ea3p-55},
	{0x1.14p-01, 0x1.3c6080c36bfb5p-01, 0x1.1930603d87b6ep-56},
	{0x1.12p-01, 0x1.4019c2125ca93p-01, 0x1.86cf0f38b461ap-57},
	{0x1.12p-01, 0x1.4019c2125ca93p-01, 0x1.86cf0f38b461ap-57},
	{0x1.1p-01, 0x1.43d9ff2f923c5p-01, -0x1.84f481051f71ap-56},
	{0x1.1p-01, 0x1.43d9ff2f923c5p-01, -0x1.84f481051f71ap-56},
	{0x1.0ep-01, 0x1.47a1527e8a2d3p-01, 0x1.2541aca7d5844p-55},
	{0x1.0ep-01, 0x1.47a1527e8a2d3p-01, 0x1.2541aca7d5844p-55},
	{0x1.0cp-01, 0x1.4b6fd6f970c1fp-01, 0x1.c457b531506f6p-55},
	{0x1.0ap-01, 0x1.4f45a835a4e19p-01, 0x1.d749362382a77p-56},
	{0x1.0ap-01, 0x1.4f45a835a4e19p-01, 0x1.d749362382a77p-56},
	{0x1.08p-01, 0x1.5322e26867857p-01, 0x1.988ba4aea614dp-56},
	{0x1.08p-01, 0x1.5322e26867857p-01, 0x1.988ba4aea614dp-56},
	{0x1.06p-01, 0x1.5707a26bb8c66p-01, 0x1.80bff3303dd48p-55},
	{0x1.06p-01, 0x1.5707a26bb8c66p-01, 0x1.80bff3303dd48p-55},
	{0x1.04p-01, 0x1.5af405c3649ep-01, -0x1.6714fbcd8135bp-55},
	{0x1.04p-01, 0x1.5af405c3649ep-01, -0x1.6714fbcd8135bp-55},
	{0x1.02p-01, 0x1.5ee82aa24192p-01, 0x1.1c066d235ee63p-56},
	{0x1.02p-01, 0x1.5ee82aa24192p-01, 0x1.1c066d235ee63p-56},
}

// logApprox is log x as the unevaluated sum hi + lo (see above), and false when x is not a
// positive normal finite number or is 1.
func logApprox(x float64) (dd, bool) {
	ix := math.Float64bits(x)
	if ix-0x0010000000000000 >= 0x7FE0000000000000 || x == 1 {
		return dd{}, false
	}
	tmp := ix - logOff
	t := &logTable[tmp>>45&127]
	k := float64(int64(tmp) >> 52)
	z := math.Float64frombits(ix - tmp&(0xFFF<<52))
	r := math.FMA(z, t.c, -1)
	p := r * r
	pl := math.FMA(r, r, -p)
	q := logQ[7]
	for j := 6; j >= 0; j-- {
		q = logQ[j] + float64(r*q)
	}
	poly := float64(float64(r*p) * q)
	s1 := twoSum(k*ln2Hi, t.hi)
	s2 := twoSum(s1.hi, r)
	s3 := twoSum(s2.hi, -0.5*p)
	tail := ((s1.lo + s2.lo) + s3.lo) + (t.lo + float64(k*ln2Lo)) - 0.5*pl
	return fastTwoSum(s3.hi, tail+poly), true
}

// logRounds is the rounding test: whether every value within 2^-62 relative of y.hi + y.lo
// rounds to y.hi.
func logRounds(y dd) bool {
	b := math.Float64bits(y.hi)
	if b&(1<<52-1) == 0 {
		return false // a power of two (or 0): the gap below is half the gap above
	}
	h := math.Float64frombits(b&(0x7FF<<52) - 53<<52) // half an ulp of y.hi
	return math.Abs(y.lo) < h*(1-0x1p-8)
}
