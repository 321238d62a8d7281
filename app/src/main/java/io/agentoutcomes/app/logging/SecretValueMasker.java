package io.agentoutcomes.app.logging;

import com.fasterxml.jackson.core.JsonStreamContext;
import net.logstash.logback.mask.ValueMasker;

/** Hides secrets in every string value of the JSON format ({@link LogMasking}): message, stack trace, arguments. */
public final class SecretValueMasker implements ValueMasker {
    @Override
    public Object mask(JsonStreamContext context, Object value) {
        if (value instanceof CharSequence text) {
            String masked = LogMasking.mask(text.toString());
            return masked.equals(text.toString()) ? null : masked;
        }
        return null;
    }
}
