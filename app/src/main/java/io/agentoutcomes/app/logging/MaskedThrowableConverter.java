package io.agentoutcomes.app.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** {@code %ex} of the text format, with secrets hidden ({@link LogMasking}). */
public final class MaskedThrowableConverter extends ThrowableProxyConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return LogMasking.mask(super.convert(event));
    }
}
