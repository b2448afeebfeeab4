package birds

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Decimal is an exact decimal number with the semantics of bignumber.js as the organisers'
// scoring script uses it: sums and products are exact, every division is rounded to 20 decimal
// places half away from zero (DECIMAL_PLACES 20, ROUND_HALF_UP), and String prints toFixed():
// plain notation, no exponent, no trailing zeros. The zero value is 0.
type Decimal struct {
	coef  *big.Int // value = coef · 10^-scale
	scale int
}

const divisionPlaces = 20

var bigTen = big.NewInt(10)

func (d Decimal) c() *big.Int {
	if d.coef == nil {
		return new(big.Int)
	}
	return d.coef
}

// DecimalFromInt is an integer.
func DecimalFromInt(n int64) Decimal { return Decimal{coef: big.NewInt(n)} }

// DecimalFromFloat is what `new BigNumber(x)` makes of a JavaScript number: the shortest decimal
// that reads back as x (String(x)). NaN and infinities become 0.
func DecimalFromFloat(x float64) Decimal {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return Decimal{}
	}
	d, _ := ParseDecimal(strconv.FormatFloat(x, 'g', -1, 64))
	return d
}

// ParseDecimal reads a decimal string, with optional sign, fraction and exponent.
func ParseDecimal(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 400 || e < -400 {
			return Decimal{}, errors.New("bad decimal exponent")
		}
		exp = e
		s = s[:i]
	}
	neg := false
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		neg = s[0] == '-'
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := intPart + frac
	if digits == "" || len(digits) > 2000 || strings.Trim(digits, "0123456789") != "" {
		return Decimal{}, errors.New("bad decimal")
	}
	c, _ := new(big.Int).SetString(digits, 10)
	if neg {
		c.Neg(c)
	}
	d := Decimal{coef: c, scale: len(frac) - exp}
	return d.normal(), nil
}

// MustDecimal parses a literal.
func MustDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// normal removes trailing zeros and negative scales.
func (d Decimal) normal() Decimal {
	c := new(big.Int).Set(d.c())
	s := d.scale
	if c.Sign() == 0 {
		return Decimal{coef: c}
	}
	r := new(big.Int)
	for s > 0 {
		q, m := new(big.Int).QuoRem(c, bigTen, r)
		if m.Sign() != 0 {
			break
		}
		c, s = q, s-1
	}
	if s < 0 {
		c.Mul(c, pow10(-s))
		s = 0
	}
	return Decimal{coef: c, scale: s}
}

func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// aligned returns both coefficients at the larger scale.
func aligned(a, b Decimal) (*big.Int, *big.Int, int) {
	ca, cb := new(big.Int).Set(a.c()), new(big.Int).Set(b.c())
	switch {
	case a.scale > b.scale:
		cb.Mul(cb, pow10(a.scale-b.scale))
		return ca, cb, a.scale
	case b.scale > a.scale:
		ca.Mul(ca, pow10(b.scale-a.scale))
		return ca, cb, b.scale
	}
	return ca, cb, a.scale
}

func (d Decimal) Add(e Decimal) Decimal {
	a, b, s := aligned(d, e)
	return Decimal{coef: a.Add(a, b), scale: s}.normal()
}

func (d Decimal) Sub(e Decimal) Decimal {
	a, b, s := aligned(d, e)
	return Decimal{coef: a.Sub(a, b), scale: s}.normal()
}

func (d Decimal) Mul(e Decimal) Decimal {
	return Decimal{coef: new(big.Int).Mul(d.c(), e.c()), scale: d.scale + e.scale}.normal()
}

// Div is bignumber.js dividedBy: rounded to 20 decimal places, half away from zero. Division by
// zero gives 0 (bignumber.js would give Infinity or NaN; the script never divides by zero).
func (d Decimal) Div(e Decimal) Decimal {
	if e.c().Sign() == 0 {
		return Decimal{}
	}
	num := new(big.Int).Set(d.c())
	den := new(big.Int).Set(e.c())
	// d/e·10^20 = d.coef·10^(20 − d.scale + e.scale) / e.coef
	if shift := divisionPlaces - d.scale + e.scale; shift >= 0 {
		num.Mul(num, pow10(shift))
	} else {
		den.Mul(den, pow10(-shift))
	}
	neg := num.Sign()*den.Sign() < 0
	num.Abs(num)
	den.Abs(den)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return Decimal{coef: q, scale: divisionPlaces}.normal()
}

// DivInt divides by an integer.
func (d Decimal) DivInt(n int64) Decimal { return d.Div(DecimalFromInt(n)) }

func (d Decimal) Cmp(e Decimal) int {
	a, b, _ := aligned(d, e)
	return a.Cmp(b)
}

func (d Decimal) IsZero() bool { return d.c().Sign() == 0 }

// MaxDecimal is BigNumber.max.
func MaxDecimal(a, b Decimal) Decimal {
	if b.Cmp(a) > 0 {
		return b
	}
	return a
}

// Float is the nearest float64.
func (d Decimal) Float() float64 {
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// String is toFixed(): the exact value in plain notation without trailing zeros.
func (d Decimal) String() string {
	n := d.normal()
	digits := new(big.Int).Abs(n.c()).String()
	sign := ""
	if n.c().Sign() < 0 {
		sign = "-"
	}
	if n.scale == 0 {
		return sign + digits
	}
	if len(digits) <= n.scale {
		digits = strings.Repeat("0", n.scale-len(digits)+1) + digits
	}
	cut := len(digits) - n.scale
	return sign + digits[:cut] + "." + digits[cut:]
}

// MarshalJSON writes the decimal as a JSON string, as the organisers' constants.json does.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(d.String())), nil }
