/** The business a credit-terms test applies for. */
export const CREDIT_TERMS_BUSINESS = {
  firstName: 'Dana',
  lastName: 'Reyes',
  businessName: 'Reyes Supply Co.',
  businessEmail: 'ap@reyes-supply.example',
  businessAddress: '120 Market Street, Springfield, IL 62701',
  requestedCreditAmount: 25000,
};
