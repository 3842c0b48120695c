#!/bin/sh
# An example source for the `command` plugin: prints help-center articles as NDJSON items on standard output.
# The scheduler runs it once per unit with SCHEDULER_SOURCE, SCHEDULER_PARTITION (here en or fr),
# SCHEDULER_UNIT and SCHEDULER_DOMAIN in its environment. Identifiers are unique in the whole index,
# so each partition prefixes its own.
set -eu
domain="${SCHEDULER_DOMAIN:?run me from the scheduler}"
lang="${SCHEDULER_PARTITION:-en}"

item() { # id title description keywords
    printf '{"uniqueIdentifier":"help-%s-%s","domainIdentifier":"%s","contentType":"public.text","title":"%s","contentDescription":"%s","keywords":%s}\n' \
        "$lang" "$1" "$domain" "$2" "$3" "$4"
}

case "$lang" in
fr)
    item returns "Retourner une commande" "Vous avez 30 jours pour renvoyer un article, sans frais." '["remboursement","retour","échange"]'
    item delivery "Délais de livraison" "Les commandes quittent notre entrepôt sous 24 heures ; le fromage voyage au frais." '["expédition","livraison"]'
    item gift-cards "Cartes cadeaux" "Les cartes cadeaux n’expirent jamais et valent pour tout produit." '["cadeau","bon"]'
    ;;
*)
    item returns "Returning an order" "You have 30 days to send back anything, free of charge." '["refund","return","exchange"]'
    item delivery "Delivery times" "Orders leave our warehouse within 24 hours; cheese travels chilled." '["shipping","delivery"]'
    item gift-cards "Gift cards" "Gift cards never expire and can be used for any product." '["gift","voucher"]'
    ;;
esac
