package io.agentoutcomes.app.http.pages;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Numbers as the pages print them: counts with thousands separators, US dollars. */
final class Amounts {
    private Amounts() {
    }

    /** US dollars: cents from a dollar up, three significant digits below. */
    static String dollars(double usd) {
        if (usd == 0) {
            return "$0";
        }
        if (usd >= 1) {
            return String.format(Locale.ROOT, "$%,.2f", usd);
        }
        return "$" + new BigDecimal(usd).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A count with thousands separators. */
    static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }
}
