#include "pabo/bounce_probability.h"

#include <cmath>

namespace fcswitch::pabo {

double BounceProbability::operator()(double utilisation, uint32_t bounces) const {
  if (utilisation <= theta_) return 0;
  if (utilisation >= 1) return 1;
  const double scale = lambda_ / (static_cast<double>(bounces) + 1);
  // expm1 keeps the ratio exact where λ/(n_p+1) is small (e^x − 1 ≈ x); below ~1e-9 the two
  // terms are the limit's to double precision.
  if (scale < 1e-9) return (utilisation - theta_) / (1 - theta_);
  return std::expm1(scale * (theta_ - utilisation)) / std::expm1(scale * (theta_ - 1));
}

}  // namespace fcswitch::pabo
