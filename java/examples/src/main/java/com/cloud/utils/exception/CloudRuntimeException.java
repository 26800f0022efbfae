package com.cloud.utils.exception;

/** A stand-in of CloudStack's {@code CloudRuntimeException}. */
public class CloudRuntimeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CloudRuntimeException(String message) {
        super(message);
    }

    public CloudRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
