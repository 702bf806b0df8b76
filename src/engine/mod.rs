pub mod knockout;
