"""Reference pages of the demo's API documentation: one page per resource (demo/pages.py)."""

from __future__ import annotations


def _resource(name: str, plural: str, fields: list[tuple[str, str, str]], extra: str = "") -> str:
    rows = "\n".join(f"| `{f}` | {t} | {d} |" for f, t, d in fields)
    return f"""# {name}

The {name.lower()} object and the endpoints that manage {plural}.

## The {name.lower()} object

| Field | Type | Description |
|-------|------|-------------|
{rows}

## List {plural}

```http
GET /v2/{plural}?limit=50&cursor=...
```

Returns up to `limit` {plural}, newest first, with a `next_cursor` while more remain.

## Retrieve a {name.lower()}

```http
GET /v2/{plural}/{{id}}
```

Answers `404` when there is no such {name.lower()}; see [Errors](../errors.md#status-codes).
{extra}"""


ORDERS = _resource(
    "Order",
    "orders",
    [
        ("id", "string", "Unique identifier, `ord_` prefix"),
        ("status", "enum", "`pending`, `paid`, `shipped`, `delivered` or `cancelled`"),
        ("customer", "string", "The customer's id"),
        ("items", "array", "Line items: `sku` and `quantity`"),
        ("total", "integer", "Amount in cents"),
        ("created_at", "timestamp", "When the order was placed"),
    ],
    "\n## Cancel an order\n\nOnly `pending` and `paid` orders can be cancelled; a shipped "
    "order answers `409`. Refunds are described in [Refunds](../../guides/orders/refunds.md).\n",
)
CUSTOMERS = _resource(
    "Customer",
    "customers",
    [
        ("id", "string", "Unique identifier, `cus_` prefix"),
        ("email", "string", "Where receipts are sent"),
        ("name", "string", "Display name"),
        ("metadata", "object", "Up to 20 keys of your own"),
    ],
)
PRODUCTS = _resource(
    "Product",
    "products",
    [
        ("sku", "string", "Stock keeping unit, unique"),
        ("name", "string", "Shown on invoices"),
        ("price", "integer", "Unit price in cents"),
        ("stock", "integer", "Units available; `null` for unlimited"),
    ],
)
INVOICES = _resource(
    "Invoice",
    "invoices",
    [
        ("id", "string", "Unique identifier, `inv_` prefix"),
        ("order", "string", "The order it bills"),
        ("pdf", "url", "A signed link to the PDF, valid one hour"),
    ],
    "\nA sample is attached: [sample invoice](../../.gitbook/assets/sample-invoice.pdf).\n",
)
WEBHOOK_ENDPOINTS = _resource(
    "Webhook endpoint",
    "webhooks",
    [
        ("id", "string", "Unique identifier, `whe_` prefix"),
        ("url", "url", "Where deliveries are sent"),
        ("events", "array", "The event types delivered"),
        ("secret", "string", "Shown once, used to sign deliveries"),
    ],
    "\nHow deliveries are signed: [Verifying signatures]"
    "(../../guides/webhooks/verifying-signatures.md).\n",
)
SHIPMENTS = _resource(
    "Shipment",
    "shipments",
    [
        ("id", "string", "Unique identifier, `shp_` prefix"),
        ("carrier", "string", "`dhl`, `ups` or `postnl`"),
        ("tracking_number", "string", "The carrier's tracking number"),
    ],
    "\nCarrier logos are in the [brand kit](../../.gitbook/assets/carrier-logos.zip).\n",
)
