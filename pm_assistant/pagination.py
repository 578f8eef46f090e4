"""Page-number pagination for DRF lists that have no paging of their own (tasks page with tasks.paging)."""
from rest_framework.pagination import PageNumberPagination

from pm_assistant.vocabulary import PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX


class PagePagination(PageNumberPagination):
    page_size = PAGE_SIZE_DEFAULT
    page_size_query_param = "page_size"
    max_page_size = PAGE_SIZE_MAX
