#!/bin/sh
# An example source for the `command` plugin: prints help-center articles as NDJSON items.
# The scheduler tells it which domain to use in SCHEDULER_DOMAIN (and the unit in SCHEDULER_UNIT).
domain="${SCHEDULER_DOMAIN:?run me from the scheduler}"
cat <<ITEMS
{"uniqueIdentifier":"help-returns","domainIdentifier":"$domain","contentType":"public.text","title":"Returning an order","contentDescription":"You have 30 days to send back anything, free of charge.","keywords":["refund","return","exchange"]}
{"uniqueIdentifier":"help-delivery","domainIdentifier":"$domain","contentType":"public.text","title":"Delivery times","contentDescription":"Orders leave our warehouse within 24 hours; cheese travels chilled.","keywords":["shipping","delivery"]}
{"uniqueIdentifier":"help-gift-cards","domainIdentifier":"$domain","contentType":"public.text","title":"Gift cards","contentDescription":"Gift cards never expire and can be used for any product.","keywords":["gift","voucher"]}
ITEMS
